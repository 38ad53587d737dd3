/** The two presets' names and descriptions (modes/chat.mode.ts, modes/work.mode.ts → their preset.yml), in Chinese. */
export const presetsZh = {
  'preset.chat.name': '昔涟聊天模式',
  'preset.chat.description': '昔涟陪你聊天：记得你们的往事，也能查资料、读写文件、做计划。能力同标准模式。',
  'preset.work.name': '德谬歌工作模式',
  'preset.work.description': '德谬歌与你并肩工作：记得你们的决定与教训。能力同创造模式（标准模式全部能力 + Cordis 工具与技能）。',
} as const
