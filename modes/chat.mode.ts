import { defineMode } from './define.ts'

export default defineMode({
  id: 'chat',
  loaderId: 'preset-cyrene-chat',
  label: '昔涟聊天模式',
  description: '昔涟陪你聊天：记得你们的往事，也能查资料、读写文件、做计划。能力同标准模式。',
  order: 5,
  base: 'standard',
  persona: 'persona/chat.md',
  rails: { nickname: true, style: true, scene: true, worldbook: true },
  disable: [],
})
