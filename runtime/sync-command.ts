import type { CyreneSubcommand } from './cyrene-subcommands.ts'

/** `/cyrene sync`: the SiYuan sync is the panel issue's; until it exists, say so plainly and change nothing. */
export const syncRow: CyreneSubcommand = {
  name: 'sync',
  usage: 'sync',
  summary: '与思源笔记同步（还没有做）',
  run: () => ({
    kind: 'error',
    text: '思源笔记（SiYuan）同步还没有做：这个版本不会向思源写入或读取任何东西，什么都没改。记忆都在本地的记忆文件夹里（位置见 /cyrene doctor），可以用 /cyrene backup 备份。',
  }),
}
