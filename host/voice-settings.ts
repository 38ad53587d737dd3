import { parseSettingsText } from '../memory/person.ts'
import { PerAssembly } from './per-assembly.ts'
import type { StoreTexts } from './store-file.ts'

/** The voice keys of 元/settings.json as the rails read them now. */
export interface VoiceSettings {
  nickname?: string
  style?: string
  problems: string[]
}

const SETTINGS_FILE = '元/settings.json'

/**
 * `nickname` and `style` of 元/settings.json for the rails and the `/cyrene` voice commands:
 * re-read when the file changed (the CLI may write it while DSH runs), looked at once per
 * assembly. Writing them is the engine's (`CyreneMemory.setVoiceSetting`): a read never writes.
 */
export class VoiceSettingsReader {
  private readonly texts: StoreTexts
  /** The row's settings layer (defaults ← this ← 元/settings.json), as the store parses it. */
  private readonly layer: Record<string, unknown>
  private readonly perAssembly = new PerAssembly<VoiceSettings>()
  /** The voice keys of the settings text last parsed: every step asks, so it is parsed only when it changed. */
  private kept: { text: string; voice: VoiceSettings } | undefined

  constructor(texts: StoreTexts, layer: Record<string, unknown>) {
    this.texts = texts
    this.layer = layer
  }

  /** The voice settings now (once per `assembly`); empty when no store is known or the file is unreadable. */
  settings(assembly?: object): VoiceSettings {
    const voice = this.perAssembly.get(assembly, () => this.readNow())
    return { ...voice, problems: [...voice.problems] }
  }

  /** The nickname the person set, once per `assembly`; undefined when unset or unreadable. */
  nickname(assembly?: object): string | undefined {
    return this.settings(assembly).nickname
  }

  private readNow(): VoiceSettings {
    const text = this.texts.read(SETTINGS_FILE)
    if (text === undefined) return { problems: [] }
    if (this.kept?.text !== text) {
      const { settings, problems } = parseSettingsText(text, this.layer)
      const voice: VoiceSettings = { problems: problems.filter((p) => /nickname|style|JSON/.test(p)) }
      if (settings.nickname !== undefined) voice.nickname = settings.nickname
      if (settings.style !== undefined) voice.style = settings.style
      this.kept = { text, voice }
    }
    return this.kept.voice
  }
}
