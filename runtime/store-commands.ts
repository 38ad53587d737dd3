import type { Context } from '@deepseek-ai/cordis'
import type {} from '../host/service.ts'
import { newVolume } from '../host/new-volume.ts'
import { CONFIRM_WORD, describeSnapshots, restoreSnapshot, takeSnapshot, type MemoryStore } from '../memory/index.ts'
import type { CommandResult, CyreneSubcommand } from './cyrene-subcommands.ts'

/**
 * The person's store commands in chat: a new volume, a snapshot, a restore.
 * Each is the same code as its `cyrene` command-line twin (memory/ and
 * host/new-volume.ts), run by the engine this DSH process holds; a refusal
 * says what to do and changes nothing.
 */

/** The store this process's engine holds, or the answer that says why there is none. */
async function withStore(ctx: Context, act: (store: MemoryStore) => Promise<CommandResult>): Promise<CommandResult> {
  const store = ctx.get('cyreneMemory')?.store()
  if (store === undefined) return { kind: 'error', text: '记忆引擎没有在这个 DSH 进程里运行（原因见 /cyrene doctor），什么都没做。' }
  try {
    return await act(store)
  } catch (error) {
    return { kind: 'error', text: `没有做成，什么都没改：${(error as Error).message}` }
  }
}

export const newVolumeRow: CyreneSubcommand = {
  name: 'new-volume',
  usage: 'new-volume confirm <原因>',
  summary: '开新卷（人格正文、五育定义或存储结构有重大变更时；只有你能开）',
  run: (ctx, args) => {
    const [word = '', ...rest] = args
    const reason = rest.join(' ').trim()
    if (word.toLowerCase() !== 'confirm' || reason === '')
      return {
        kind: 'error',
        text: `开新卷是大事：只在人格正文、五育定义或存储结构有重大变更时开，记忆内容的变化不开卷。确定的话：/cyrene new-volume confirm <一句原因>。什么都没改。`,
      }
    return withStore(ctx, async (store) => {
      const v = await newVolume(store, { reason, confirm: CONFIRM_WORD })
      return {
        kind: 'success',
        text: `已开第 ${v.id} 卷：${v.reason}。人格指纹 ${v.persona_hash.slice(0, 20)}…，旧卷的人格快照在 元/卷/。人格正文本身没有改：要改就改 persona/ 后重新 build。`,
      }
    })
  },
}

export const backupRow: CyreneSubcommand = {
  name: 'backup',
  usage: 'backup',
  summary: '现在给记忆拍一份快照（保留最新 7 份）',
  run: (ctx) =>
    withStore(ctx, async (store) => {
      const s = await takeSnapshot(store, 'manual')
      return { kind: 'success', text: `已拍快照 ${s.name}（${s.files} 个文件），在 ${s.path}。恢复用 /cyrene restore ${s.name}。` }
    }),
}

export const restoreRow: CyreneSubcommand = {
  name: 'restore',
  usage: 'restore <快照名>',
  summary: '把记忆恢复到某份快照（先把现在的样子存成一份快照，可撤销）',
  run: (ctx, args) =>
    withStore(ctx, async (store) => {
      const name = args[0]
      if (name === undefined) {
        const list = await describeSnapshots(store)
        return {
          kind: 'error',
          text:
            list.length === 0
              ? '还没有快照：先 /cyrene backup。'
              : `用法：/cyrene restore <快照名>。现有快照（旧→新）：\n${list.map((s) => `  ${s.name}${s.verified ? '' : '（无校验和，只查格式）'}`).join('\n')}`,
        }
      }
      const r = await restoreSnapshot(store, name, { by: 'person' })
      return {
        kind: 'success',
        text: [
          `已从 ${name} 恢复 ${r.restored} 个文件（去掉了 ${r.removed} 个较新的文件）。恢复前的样子存成了 ${r.safety}：想撤销就 /cyrene restore ${r.safety}。`,
          ...(r.verified ? [] : [`${name} 没有校验和（早于校验和的快照），只按格式检查过。`]),
          ...r.warnings.map((w) => `提醒：${w}（按快照原样恢复；cyrene memory check 可以查看）`),
        ].join('\n'),
      }
    }),
}
