import { bothLanguages } from '../i18n/index.ts'
import { defineMode } from './define.ts'

export default defineMode({
  id: 'chat',
  loaderId: 'preset-cyrene-chat',
  label: bothLanguages('preset.chat.name'),
  description: bothLanguages('preset.chat.description', ' / '),
  order: 5,
  base: 'standard',
  persona: 'persona/chat.md',
  rails: { nickname: true, style: true, scene: true, worldbook: true },
  disable: [],
})
