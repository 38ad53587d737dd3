import type { Context } from '@deepseek-ai/cordis'
import type {} from '@deepseek-ai/dsh-agent-presets'
import { t, type Lang } from '../i18n/index.ts'
import { chatDoctorLines, type BuiltinPresets } from '../host/doctor.ts'
import { doctorReport } from '../doctor/index.ts'
import { dshVersionAbove } from '../host/preset-roots.ts'
import type {} from '../guard/row.ts'
import type { WhalePersona } from '../host/whale-row.ts'
import type { CyreneDream } from '../night/row.ts'
import type { CyreneSubcommand } from './cyrene-subcommands.ts'

/** `/cyrene doctor [--verbose]`: the lines are host/doctor.ts's (shared with `cyrene doctor`); this hands it what DSH's services see. */
export const doctorRow: CyreneSubcommand = {
  name: 'doctor',
  usage: 'help.doctor.usage',
  summary: 'help.doctor.summary',
  run: async (ctx, args, _agent, lang) => ({ kind: 'success', text: await doctorText(ctx, args.includes('--verbose'), lang) }),
}

async function doctorText(ctx: Context, verbose: boolean, lang: Lang): Promise<string> {
  const whaleRow = ctx.get('whalePersona') as WhalePersona | undefined
  const lines = await chatDoctorLines({
    env: process.env,
    cwd: process.cwd(),
    lang,
    memory: ctx.get('cyreneMemory'),
    seats: ctx.get('cyreneSeats'),
    whaleRow,
    guard: ctx.get('cyreneStoreGuard'),
    builtins: await rosterBuiltins(ctx, lang),
    dream: (ctx.get('cyreneDream') as CyreneDream | undefined)?.doctorState(),
  })
  return doctorReport(lines, { verbose, lang })
}

/** The built-in presets exactly as the running DSH's roster serves them (system trust, first root wins). */
async function rosterBuiltins(ctx: Context, lang: Lang): Promise<BuiltinPresets> {
  try {
    const roster = ctx.get('agentPresets')
    if (roster === undefined) return { missing: t('doctor.base.noRoster', lang) }
    const system = (await roster.list()).filter((p) => p.trust === 'system')
    const found = new Map(system.map((p) => [p.id, p.path]))
    const first = system.find((p) => p.id === 'standard') ?? system[0]
    return { found, dshVersion: first === undefined ? undefined : dshVersionAbove(first.path) }
  } catch (error) {
    return { missing: t('doctor.base.rosterFailed', lang, { error: (error as Error).message }) }
  }
}
