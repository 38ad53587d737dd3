import { bothLanguages } from '../i18n/index.ts'
import { defineMode } from './define.ts'

export default defineMode({
  id: 'cyrene-work',
  loaderId: 'preset-cyrene-work',
  label: bothLanguages('preset.work.name'),
  description: bothLanguages('preset.work.description', ' / '),
  order: 6,
  base: 'cordis',
  persona: 'persona/work.md',
  rails: { worldbook: true },
  disable: [],
})
