import type { Context } from '@deepseek-ai/cordis'
import { defineTool } from '@deepseek-ai/dsh-tools'
import type {} from '../host/service.ts'
import { LINK_TYPES } from '../memory/format.ts'
import { promptSafe } from '../prompt/index.ts'

/**
 * `memory_link` and `memory_margin` (issue 9 item 5), registered beside the
 * other memory tools in the Cyrene presets only. Both are model writes through
 * the store: a link is validated there (both entries exist, a base entry is
 * never changed, pending entries are never edited); free writing goes to
 * 余页/, never gated, never injected, counted against the 余页 quota only.
 */
const text = (value: string) => [{ type: 'text' as const, text: value }]

function service(ctx: Context) {
  const memory = ctx.get('cyreneMemory')
  if (memory === undefined) throw new Error('the Cyrene host service is not running; nothing was written')
  return memory
}

export function registerLinkAndMarginTools(ctx: Context): void {
  ctx.tools.register(
    defineTool({
      name: 'memory_link',
      description: [
        '在两条已有的记忆之间加一条有类型的关联（从 from 指向 to）。',
        `type 用 ${LINK_TYPES.join('/')} 之一（说不清就留空）。两条都必须已存在（id 用 memory_search 查）。`,
        '只改关联，不改正文；对方的「基石」条目不能作为 from（可以作为 to：从另一条指向它）。同一对再连一次会换成新的类型。',
      ].join(''),
      parameters: {
        from: { type: 'string', required: true, description: '关联从哪条记忆出发（id）' },
        to: { type: 'string', required: true, description: '指向哪条记忆（id）' },
        type: { type: 'string', description: `${LINK_TYPES.join(' | ')}，或留空` },
      },
      output: {
        schema: {
          type: 'object',
          additionalProperties: false,
          properties: {
            from: { type: 'string', required: true },
            link: { type: 'string', required: true },
            changed: { type: 'boolean', required: true },
            replaced: { type: 'string' },
          },
        },
        render: (_args, value) =>
          text(
            !value.changed
              ? `这条关联已经在了（${promptSafe(value.from)} → ${promptSafe(value.link)}），没有改动。`
              : `已加上关联 ${promptSafe(value.from)} → ${promptSafe(value.link)}${value.replaced !== undefined ? `（替换了原来的 ${promptSafe(value.replaced)}）` : ''}。`,
          ),
      },
      async execute(args) {
        return await service(ctx).linkAsModel({ from: args.from, to: args.to, type: args.type ?? '' })
      },
    }),
  )

  ctx.tools.register(
    defineTool({
      name: 'memory_margin',
      description: [
        '在「余页」里自由地写：随想、草稿、还没想清楚的东西。不过五育闸门，也不会被注入或日常检索，只占余页的配额。',
        '每次都是追加，不会覆盖已写的内容。file 是余页里的 .md 文件名（可带子文件夹，不能是 待定/），不填就写进 随笔/今天.md。',
        '真正值得长久记住的事仍用 memory_write。',
      ].join(''),
      parameters: {
        text: { type: 'string', required: true, description: '要写下的内容' },
        file: { type: 'string', description: '余页里的文件，如 随笔/读书.md；默认 随笔/<今天>.md' },
      },
      output: {
        schema: { type: 'object', additionalProperties: false, properties: { file: { type: 'string', required: true } } },
        render: (_args, value) => text(`已写进 ${promptSafe(value.file)}（余页：不注入、不检索）。`),
      },
      async execute(args) {
        return await service(ctx).marginAsModel(args.file, args.text)
      },
    }),
  )
}
