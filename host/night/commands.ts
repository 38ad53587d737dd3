import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { CommandResult, CyreneSubcommand } from '../../runtime/cyrene-subcommands.ts'
import type { CyreneDream } from './service.ts'
import type { NightOutcome } from './night.ts'

/**
 * `/dream` (tonight's dream now; a second one the same night appends to the
 * same journal) and `/cyrene dream on|off|status` (this session in or out of
 * the night). The work is the host's `cyreneDream` service.
 */
function service(ctx: Context): CyreneDream | undefined {
  return ctx.get('cyreneDream') as CyreneDream | undefined
}

/** What a dream run came to, in words; `/dream` and the panel's "Dream now" both answer with it. */
export function describeOutcome(o: NightOutcome | { kind: 'no-engine' }): CommandResult {
  switch (o.kind) {
    case 'dreamt': {
      const what = o.wrote ? `梦志写在 ${o.journal}` : `模型没有写梦志，${o.journal} 记下「本次未产出」`
      const checks = [o.checks.month, o.checks.year]
        .filter((c) => c !== undefined)
        .map((c) => `纳入 ${c.promoted.length}、仍待定 ${c.stillPending.length}、归档 ${c.tombstoned.length}`)
      const cut = o.cut.entries + o.cut.pending > 0 ? `（上限外未带入：记忆 ${o.cut.entries}、待定 ${o.cut.pending}）` : ''
      const text = `昔涟做了 ${o.covered.join('、')} 的梦：${what}。${checks.length > 0 ? `复检：${checks.join('；')}。` : ''}${cut}`
      return o.error === undefined ? { kind: 'success', text } : { kind: 'error', text: `${text}\n模型调用失败：${o.error}` }
    }
    case 'busy':
      return { kind: 'error', text: '另一个进程正在做今晚的梦（元/梦.lock）；等它做完再试。' }
    case 'no-model':
      return { kind: 'error', text: '还没有会话记下可用的模型：先在一个昔涟会话里聊一句，或在 cyrene-host 的 dream.provider/dream.model 里设定。' }
    case 'no-engine':
      return { kind: 'error', text: '这个 DSH 进程没有持有记忆引擎（见 /cyrene doctor），没有做梦。' }
    case 'not-due':
      return { kind: 'success', text: '今晚的梦已经做过了。' }
  }
}

export function registerDreamCommand(ctx: Context): void {
  ctx.commands.register({
    name: 'dream',
    description: '昔涟：现在就做今晚的统合梦（同一晚再做一次会追加到同一篇梦志）',
    handler: async () => {
      const dream = service(ctx)
      if (dream === undefined) return { kind: 'error', text: '夜梦服务没有挂载（cyrene-host 行），见 /cyrene doctor。' }
      try {
        return describeOutcome(await dream.dream('/dream', true))
      } catch (e) {
        return { kind: 'error', text: `做梦失败：${(e as Error).message}` }
      }
    },
  })
}

async function dreamSwitch(ctx: Context, args: string[], agent: Agent): Promise<CommandResult> {
  const dream = service(ctx)
  if (dream === undefined) return { kind: 'error', text: '夜梦服务没有挂载（cyrene-host 行），见 /cyrene doctor。' }
  const [word = 'status'] = args
  const sub = word.toLowerCase()
  if (sub !== 'on' && sub !== 'off' && sub !== 'status') return { kind: 'error', text: `没有「/cyrene dream ${word}」。用法：/cyrene dream on|off|status` }
  const id = String(agent.session.id)
  if (sub === 'status') {
    const s = dream.doctorState()
    return { kind: 'success', text: `夜梦${s.enabled ? `每晚 ${s.at}` : '已在配置里关闭'}；本会话${s.tasks.includes(id) ? '已挂上' : '没有挂上'}今晚的任务。` }
  }
  const roster = ctx.get('agentPresets') as { composedPreset(c: Context): string | undefined } | undefined
  try {
    await dream.setEnabled(id, roster?.composedPreset(agent.ctx) ?? '', sub === 'on')
  } catch (e) {
    return { kind: 'error', text: (e as Error).message }
  }
  return { kind: 'success', text: sub === 'on' ? '本会话参加每晚的统合梦。' : '本会话不再参加每晚的统合梦（/cyrene dream on 恢复）。' }
}

export const DREAM_SUBCOMMAND: CyreneSubcommand = {
  name: 'dream',
  usage: 'dream on|off|status',
  summary: '本会话参加/不参加每晚的统合梦',
  run: (ctx, args, agent) => dreamSwitch(ctx, args, agent),
}
