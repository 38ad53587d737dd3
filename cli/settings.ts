import { join } from 'node:path'
import { CliError, type CliIO } from './io.ts'
import { CyreneCommand } from './command.ts'
import { guarded, openStore, out, type StoreOptions } from './memory-shared.ts'
import { storeSaidText } from './refusal-text.ts'
import { NICKNAME_MAX, VOICE_SETTING_KEYS, voiceSettingProblem, writeVoiceSetting, type VoiceSettingKey } from '../memory/person.ts'
import { readTextOr } from '../memory/files.ts'
import { STYLES_OVERRIDE, voiceTexts } from '../rails/index.ts'
import { help, langOf, say } from './help-text.ts'

function keyOf(raw: string | undefined, io: CliIO): VoiceSettingKey {
  if (raw !== undefined && (VOICE_SETTING_KEYS as readonly string[]).includes(raw)) return raw as VoiceSettingKey
  const keys = VOICE_SETTING_KEYS.join(', ')
  throw new CliError(
    raw === undefined ? say(io, 'store.settings.noKey', { keys }) : say(io, 'store.settings.unknownKey', { key: JSON.stringify(raw), keys }),
    2,
  )
}

/** memory/settings.ts's problem with a value, in the person's words (read back from its sentence, whose forms are fixed). */
function problemText(key: string, problem: string, io: CliIO): string {
  if (langOf(io) !== 'en') {
    if (problem.endsWith('must not be empty')) return say(io, 'store.settings.empty', { key })
    if (problem.endsWith('must not start or end with spaces')) return say(io, 'store.settings.spaces', { key })
    if (problem.includes('must be one line')) return say(io, 'store.settings.line', { key })
    const long = /is (\d+) characters; at most (\d+)$/.exec(problem)
    if (long !== null) return say(io, 'store.settings.long', { key, chars: long[1]!, max: long[2]! })
  }
  return say(io, 'store.settings.problem', { problem })
}

/** `cyrene settings …`: get, set and unset the voice keys. */
export function settingsFamily(io: CliIO): CyreneCommand {
  const settings = new CyreneCommand('settings', io).description(help(io, 'cli.settings', { max: NICKNAME_MAX }))
  const withRoot = (c: CyreneCommand) => c.option('--json', help(io, 'cli.json')).option('--root <DIR>', help(io, 'cli.root'))
  const keys = VOICE_SETTING_KEYS.join(' | ')
  withRoot(settings.command('get').description(help(io, 'cli.settings.get')).argument('<key>', keys)).act<StoreOptions>(
    async (o, args) => await get(o, args, io),
  )
  withRoot(
    settings.command('set').description(help(io, 'cli.settings.set')).argument('<key>', keys).argument('<value...>', help(io, 'cli.settings.set.value')),
  ).act<StoreOptions>(async (o, args) => await set(o, args, io))
  withRoot(settings.command('unset').description(help(io, 'cli.settings.unset')).argument('<key>', keys)).act<StoreOptions>(
    async (o, args) => await unset(o, args, io),
  )
  return settings
}

async function get(o: StoreOptions, args: string[], io: CliIO): Promise<number> {
  const key = keyOf(args[0], io)
  const store = await openStore(io, o.root)
  const value = store.settings[key]
  store.settingsProblems.forEach((p, i) => {
    io.stderr(`${say(io, 'store.settings.warning', { problem: storeSaidText(store.settingsSaid[i], p, io) })}\n`)
  })
  out(io, o.json, { key, value: value ?? null }, () => (value === undefined ? '' : `${value}\n`))
  return value === undefined ? 1 : 0
}

async function set(o: StoreOptions, args: string[], io: CliIO): Promise<number> {
  const key = keyOf(args[0], io)
  const value = args.slice(1).join(' ')
  const problem = voiceSettingProblem(key, value)
  if (problem !== undefined) throw new CliError(problemText(key, problem, io), 2)
  const store = await openStore(io, o.root)
  if (key === 'style') {
    const texts = voiceTexts(undefined, await readTextOr(store.root, join(store.root, STYLES_OVERRIDE), ''))
    if (!texts.styles.some((s) => s.name === value))
      throw new CliError(say(io, 'store.settings.noStyle', { value: JSON.stringify(value), styles: texts.styles.map((s) => s.name).join(', ') }), 2)
  }
  await guarded(io, () => writeVoiceSetting(store, key, value))
  out(io, o.json, { key, value }, () => `${key} = ${value}\n`)
  return 0
}

async function unset(o: StoreOptions, args: string[], io: CliIO): Promise<number> {
  const key = keyOf(args[0], io)
  const store = await openStore(io, o.root)
  await guarded(io, () => writeVoiceSetting(store, key, undefined))
  out(io, o.json, { key, value: null }, () => `${say(io, 'store.settings.unset', { key })}\n`)
  return 0
}
