/** `cyrene --help` itself, the families' one-line summaries and the help layout's own words, in Chinese. */
export const cliRootZh = {
  'cli.about': 'cyrene —— 昔涟 · 新卷 的命令行',
  'cli.afterHelp': `
语言：--lang zh|en（任何命令都可以加），否则看 LC_ALL / LC_MESSAGES / LANG，否则用中文。
记忆在哪里：--root DIR，否则 DSH_HOME，否则你所在的 DSH profile 的 home（先看当前目录，再看这个
cyrene 装在哪里：<home>/profiles/<name>/），否则 ~/.dsh。
在命令后面加 --help 看它的选项。

退出码：
  0   成功
  1   检查发现了问题（或 \`memory show\` 没有这条）
  2   输入被拒绝——消息会说为什么；什么都没改
  3   系统拒绝了：磁盘满（ENOSPC、EDQUOT）、没有权限（EACCES、EPERM）、只读文件系统（EROFS）、
      文件大小上限（EFBIG）、读写错误，或该放文件的地方是文件夹（或反过来）；消息会说出路径、该怎么做，以及改了什么
  70  内部错误：cyrene 的 bug（CYRENE_DEBUG=1 会显示出错的位置）
读的一方提前关掉输出（\`cyrene memory list | head -1\`）不算错误。`,
  'cli.family.doctor': '这个 DSH_HOME 的体检，每一处一行：记忆、快照、夜梦、世界书、whale-persona、预设',
  'cli.family.memory': '记忆库：list、show、write、search、recall、log、check、import、export、reindex',
  'cli.family.backup': '现在给记忆库拍一份快照',
  'cli.family.restore': '把记忆库恢复到某份快照',
  'cli.family.volume': '卷：查看，或开新卷（只有人能开）',
  'cli.family.migrate': '从旧插件或 whale-persona 收件箱导入记忆',
  'cli.family.settings': '你给所有会话定的选择：nickname（她怎么称呼你）、style（道韵档位）',
  'cli.family.sync': '现在把记忆库里改动的部分同步到思源笔记；sync git：通过 git 让每台机器上是同一份记忆',
  'cli.family.whale': 'whale-persona v1：render、presets（含角色卡的导入导出）、inbox、conformance、reflex',
  'cli.family.worldbook': '世界书：列出条目，导入 SillyTavern 的 World Info',
  'cli.doctor': `在对话之外给这个 DSH_HOME 体检，每一处一行（记忆、快照、夜梦、世界书、whale-persona、预设、
旧插件）；每条提醒都说该怎么做。--verbose 在每一处下面列出各项检查：引擎、容量、长度上限、卷、
预设底座的行、反射规则。只读；有失败时退出码 1。语言按 --lang，否则 LANG，否则中文。`,
  'cli.doctor.verbose': '在每一处下面列出各项检查（哪些段、哪些行）',
  'cli.memory.after': '\n每个命令都可以加：--json（给程序读的输出）、--root DIR（代替 DSH_HOME）、--quiet（不打印进度）。\n从命令行写下的，都算你本人写的。',
  'cli.memory.when': `
--at WHEN：YYYY-MM-DD，或 YYYY-MM-DDTHH:MM[:SS[.sss]]，可带 Z 或 ±HH:MM
  （不带就是本地时间）；年份 1000–9999。`,
  'cli.restore.details': `
先检查整份快照（校验和；更早的、标着"unverified"的快照只查格式）；坏掉或被改过的快照会被拒绝，什么都不变。
然后把现在的样子存成一份恢复前快照，再切换记忆库，这样就算中途崩溃，留下的也是旧的或恢复好的那一份。请先退出 DSH。`,
  'cli.title.Usage:': '用法：',
  'cli.title.Options:': '选项：',
  'cli.title.Commands:': '命令：',
  'cli.title.Arguments:': '参数：',
  'cli.title.Global Options:': '全局选项：',
  'cli.default': '（默认 {value}）',
  'cli.sharedUnused': '也照收 {flags}：这个命令不用它们，为以前的脚本保留。',
  'cli.helpOption': '显示这个命令的帮助',
} as const
