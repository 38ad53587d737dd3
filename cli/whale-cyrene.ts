import { readFileSync } from 'node:fs'
import { packagePath } from '../host/package-root.ts'
import type { Preset } from '../whale/presets.ts'

/**
 * Cyrene's own persona as a whale-persona preset, for people who want to take
 * her to another host. Only the persona travels (spec §4.3: a card carries no
 * memory): the memory block goes, `{{user_nickname}}` becomes `{userName}`, and
 * lines naming host variables (`{{model}}`, `{{cwd}}`) are left out.
 */
const CYRENE_EXPORT_IDS = { 'cyrene:chat': 'chat', 'cyrene:work': 'work' } as const
export type CyreneExportId = keyof typeof CYRENE_EXPORT_IDS

const MODES = {
  chat: { id: 'cyrene', label: '昔涟', selfName: '昔涟', description: '昔涟（Cyrene）聊天模式的人设，导出自 dsh-cyrene-philia093-0；不含记忆。' },
  work: { id: 'cyrene-work', label: '德谬歌', selfName: '德谬歌', description: '德谬歌（昔涟的工作模式）的人设，导出自 dsh-cyrene-philia093-0；不含记忆。' },
} as const

export function isCyreneExportId(id: string): id is CyreneExportId {
  return Object.hasOwn(CYRENE_EXPORT_IDS, id)
}

/** Pure: persona text of one mode → a whale preset (without `spec`). */
export function presetFromCyrenePersona(text: string, mode: 'chat' | 'work'): Omit<Preset, 'spec'> {
  const lines = text.replace(/\r\n/g, '\n').split('\n')
  const kept: string[] = []
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string
    // "我们的记忆：" and the memory variable under it: a card carries no memory.
    if (line.includes('{{cyrene_memory}}')) {
      if (kept.at(-1)?.trim().endsWith('：')) kept.pop()
      continue
    }
    const rest = line.replace(/\{\{user_nickname\}\}/g, '{userName}')
    if (/\{\{[a-z_]+\}\}/.test(rest)) continue
    kept.push(rest)
  }
  const character = kept
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
  const m = MODES[mode]
  return {
    id: m.id,
    label: m.label,
    description: m.description,
    author: 'dsh-cyrene-philia093-0',
    tags: ['cyrene', mode],
    persona: { selfNameFlash: m.selfName, selfNamePro: m.selfName, character },
  }
}

export function cyrenePreset(id: CyreneExportId): Omit<Preset, 'spec'> {
  const mode = CYRENE_EXPORT_IDS[id]
  return presetFromCyrenePersona(readFileSync(packagePath('persona', `${mode}.md`), 'utf8'), mode)
}
