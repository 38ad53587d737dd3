import { defineMode } from './define.ts'

export default defineMode({
  id: 'cyrene-work',
  loaderId: 'preset-cyrene-work',
  label: '德谬歌工作模式',
  description: '德谬歌与你并肩工作：记得你们的决定与教训。能力同创造模式（标准模式全部能力 + Cordis 工具与技能）。',
  order: 6,
  base: 'cordis',
  persona: 'persona/work.md',
  rails: { worldbook: true },
  disable: [],
})
