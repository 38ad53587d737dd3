/** The `cyrene` command line, in Chinese. */
export const cliZh = {
  'cli.lang.bad': '--lang 只能是 zh 或 en，收到的是 {value}：例如 cyrene doctor --lang en。',
  'cli.date.bad': '{option} 要一个存在的日期，写成 YYYY-MM-DD，收到的是 {value}：例如 {option} 2026-03-01。',
  'cli.date.order': '--from {from} 在 --to {to} 之后，这样什么都列不出来：把两个日期对调（--from {to} --to {from}）。',
  'cli.axis.bad': '--axis 是五育之一：{axes}，收到的是 {value}。例如 --axis 德 --reason "为什么值得记住"。什么都没写。',
  'cli.write.gateHint': '要让它进日档：加上五育和理由再写一次，例如 cyrene memory write "…" --axis 德 --reason "…"（这条 {id} 留在 余页/待定，月检会复评）',
  'cli.write.written': '写下了 {id} → {file}',
  'cli.write.kept': '{id} 留在了 {file}：还没有通过五育关',
  'cli.write.resembles': '和 {id}（{date}）相似：{text} —— 两条都留着；看 `cyrene memory show {id}`',
  'cli.list.one': '{n} 条',
  'cli.list.count': '{n} 条',
  'cli.list.problems': '；{n} 处注释读不了 —— 运行 `cyrene memory check`',
  'cli.whale.empty': '(空 —— 该段不会出现在系统提示词里)',
} as const
