import type { Context } from '@deepseek-ai/cordis'
import Schema from '@deepseek-ai/schemastery'
import '@deepseek-ai/dsh-commands'
import type { DoctorLine } from '../host/service.ts'
import { doctorReport } from './doctor.ts'

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
        return { kind: 'success', text: doctorReport(lines) }
      }
      return { kind: 'error', text: `未知子命令「${sub}」。可用：${SUBCOMMANDS}` }
    },
  })
}
