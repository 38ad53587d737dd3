import type { Context } from '@deepseek-ai/cordis'
import Schema from '@deepseek-ai/schemastery'
import type {} from '@deepseek-ai/dsh-commands'
import type { DoctorLine } from '../host/service.ts'
import { doctorReport } from './doctor.ts'
import { captureCommand, type WhalePersona } from './whale-persona.ts'

/**
 * Preset row `cyrene-commands`; the row itself declares
 * `inject: [commands, cyreneMemory]` (contract §2).
 */
export const name = 'cyrene-commands'

export interface Config {}
export const Config: Schema<Config> = Schema.object({})

const SUBCOMMANDS = 'doctor'

export function apply(ctx: Context): void {
  ctx.commands.register({
    name: 'cyrene',
    description: '昔涟：/cyrene doctor 查看状态与各项限制',
    input: { hint: SUBCOMMANDS },
    handler: ({ rawInput }) => {
      const [sub = ''] = rawInput.trim().split(/\s+/)
      if (sub === 'doctor' || sub === '') {
        let lines: DoctorLine[]
        try {
          lines = ctx.cyreneMemory.doctor()
        } catch (error) {
          lines = [{ check: 'host service', status: 'fail', detail: String((error as Error).message ?? error) }]
        }
        return { kind: 'success', text: doctorReport([...lines, whaleDoctorLine(ctx.get('whalePersona') as WhalePersona | undefined)]) }
      }
      return { kind: 'error', text: `未知子命令「${sub}」。可用：${SUBCOMMANDS}` }
    },
  })

  // Cyrene's /memory shadows whale-persona's in Cyrene presets, so it answers the
  // whale capture switch too: both work wherever they are mounted.
  ctx.commands.register({
    name: 'memory',
    description: '记忆：/memory on|off|status 切换本会话的 whale-persona 收口',
    input: { hint: MEMORY_SUBCOMMANDS },
    handler: ({ rawInput, agent }) => {
      const [sub = ''] = rawInput.trim().split(/\s+/)
      if (['on', 'off', 'status', ''].includes(sub.toLowerCase())) {
        const whale = ctx.get('whalePersona') as WhalePersona | undefined
        if (whale === undefined) return { kind: 'error', text: 'whale-persona 行没有挂载，收口开关不可用（见 /cyrene doctor）。' }
        return captureCommand(whale, agent.session.id, rawInput)
      }
      return { kind: 'error', text: `「/memory ${sub}」尚未提供：记忆引擎还没接入宿主。可用：${MEMORY_SUBCOMMANDS}` }
    },
  })
}

const MEMORY_SUBCOMMANDS = 'on | off | status'

function whaleDoctorLine(whale: WhalePersona | undefined): DoctorLine {
  if (whale === undefined) return { check: 'whale-persona', status: 'missing', detail: 'row not mounted: no whale-persona sections, /memory on|off unavailable' }
  if (whale.failures.length > 0) return { check: 'whale-persona', status: 'warn', detail: `registered with failures (another whale-persona plugin?): ${whale.failures.join('; ')}` }
  return { check: 'whale-persona', status: 'ok', detail: 'sections registered; config re-read at every assembly' }
}
