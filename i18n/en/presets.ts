import type { presetsZh } from '../zh/presets.ts'

/** The two presets' names and descriptions, in English. */
export const presetsEn: { readonly [K in keyof typeof presetsZh]: string } = {
  'preset.chat.name': 'Cyrene chat',
  'preset.chat.description':
    'Cyrene keeps you company: she remembers what you have been through together, and can also look things up, read and write files, and make plans. The capabilities of Standard mode.',
  'preset.work.name': 'Demiurge work',
  'preset.work.description':
    'Demiurge works beside you, remembering your decisions and lessons. The capabilities of the Cordis mode (all of Standard mode plus Cordis tools and skills).',
}
