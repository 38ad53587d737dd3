import { join } from 'node:path'
import { CliError, type CliIO } from './io.ts'
import { CyreneCommand } from './command.ts'
import { guarded, openStore, out, type StoreOptions } from './memory-shared.ts'
import { NICKNAME_MAX, VOICE_SETTING_KEYS, voiceSettingProblem, writeVoiceSetting, type VoiceSettingKey } from '../memory/index.ts'
import { readTextOr } from '../memory/fsio.ts'
import { STYLES_OVERRIDE, voiceTexts } from '../rails/index.ts'
import { help } from './help-text.ts'

function keyOf(raw: string | undefined): VoiceSettingKey {
  if (raw !== undefined && (VOICE_SETTING_KEYS as readonly string[]).includes(raw)) return raw as VoiceSettingKey
  throw new CliError(
    `${raw === undefined ? 'give a key' : `unknown key ${JSON.stringify(raw)}`}: one of ${VOICE_SETTING_KEYS.join(', ')}; nothing was changed`,
    2,
  )
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
  const key = keyOf(args[0])
  const store = await openStore(io, o.root)
  const value = store.settings[key]
  if (store.settingsProblems.length > 0) for (const p of store.settingsProblems) io.stderr(`warning: ${p}\n`)
  out(io, o.json, { key, value: value ?? null }, () => (value === undefined ? '' : `${value}\n`))
  return value === undefined ? 1 : 0
}

async function set(o: StoreOptions, args: string[], io: CliIO): Promise<number> {
  const key = keyOf(args[0])
  const value = args.slice(1).join(' ')
  const problem = voiceSettingProblem(key, value)
  if (problem !== undefined) throw new CliError(`${problem}; nothing was changed`, 2)
  const store = await openStore(io, o.root)
  if (key === 'style') {
    const texts = voiceTexts(undefined, await readTextOr(store.root, join(store.root, STYLES_OVERRIDE), ''))
    if (!texts.styles.some((s) => s.name === value))
      throw new CliError(`no style level ${JSON.stringify(value)}: one of ${texts.styles.map((s) => s.name).join(', ')}; nothing was changed`, 2)
  }
  await guarded(() => writeVoiceSetting(store, key, value))
  out(io, o.json, { key, value }, () => `${key} = ${value}\n`)
  return 0
}

async function unset(o: StoreOptions, args: string[], io: CliIO): Promise<number> {
  const key = keyOf(args[0])
  const store = await openStore(io, o.root)
  await guarded(() => writeVoiceSetting(store, key, undefined))
  out(io, o.json, { key, value: null }, () => `${key} unset\n`)
  return 0
}
