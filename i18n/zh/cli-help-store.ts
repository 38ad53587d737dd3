/** `cyrene settings|sync|worldbook --help` (and `memory recheck --scope`), in Chinese. */
export const cliHelpStoreZh = {
  'cli.settings': `你给所有会话定的选择，存在 元/settings.json：
  nickname  她怎么称呼你（120 号轨和 {{user_nickname}}；最多 {max} 个字）
  style     道韵档位（130 号轨），元/styles.md 或随包的 voice/styles.md 里的档位之一
文件里的其他键原样保留。正在运行的 DSH 从下一条消息起就用上改动。`,
  'cli.settings.get': '打印一个键（没设时退出码 1）',
  'cli.settings.set': '保存一个键（值不合适时拒绝，退出码 2，什么都不改）',
  'cli.settings.set.value': '值（几个词之间用一个空格连起来）',
  'cli.settings.unset': '去掉一个键（回到默认）',
  'cli.sync': `现在把记忆库里改动的部分发到思源笔记（每个记忆文件一篇文档；要在 元/settings.json 里打开 siyuan.enabled，
并在 siyuan.tokenEnv 指定的环境变量里放好 token，默认 SIYUAN_API_TOKEN）。
思源没有全部收下时退出码 1：剩下的等下一次（只有连不上思源时才按退避重试；只读模式、HTTP 401/403
或笔记本关着时等你处理），思源拒收的文件会被点名，并搁置到它改动为止。在思源里删掉的文档会重新建出来。
\`cyrene sync git\` 改用 git 复制记忆库（每台机器上是同一份记忆）。`,
  'cli.sync.git': `和你的其他机器做一次 git 同步：提交这里的改动（一次提交，列出写下的条目），取回，用 cyrene 自己的合并
（文件里从不出现冲突标记；两台机器改得不一样的地方在 \`cyrene memory check\` 里等你决定），推送。第一次用时
记忆库会变成一个 git 工作区。远端是 --remote URL（存为 元/settings.json 里的 git.remote）或 git.remote；
凭据来自 git 的凭据助手（git 或钥匙串自带的，或属于 root 的；除此之外不读全局 git 配置）、ssh 密钥或环境，从不来自地址。连不上远端或远端什么都没收下时退出码 1
（你写下的仍提交在这里，下次同步时发出去）。`,
  'cli.sync.git.remote': '通过哪个远端同步（裸仓库路径、ssh 或 https）；存进 元/settings.json',
  'cli.sync.git.gc': '现在就打包 .git/ 里的历史（历史超过记忆库配额时体检会提醒）',
  'cli.worldbook': '世界书：随包的起步条目，你的在 <root>/世界书/',
  'cli.worldbook.after': `
条目是带一小段 front matter（title、keys、secondary_keys、secondary_logic、constant、priority、enabled、
match_whole_words、case_sensitive）的 markdown 文件；用任何编辑器改，DSH 在下一步就用上。
你的文件和某个起步条目同名时替换它；front matter 里只有 "enabled: no" 的文件把它关掉。`,
  'cli.worldbook.list': '生效的条目（你的盖过起步的），以及被跳过的文件和原因',
  'cli.worldbook.import': `把 SillyTavern 的 World Info 变成 <root>/世界书/ 里的条目文件；已经在那里的文件从不覆盖。
逐条说明保留了什么、拆开了什么、没带过来什么：keys、secondary keys 和逻辑、constant、order、disable、comment、
content、matchWholeWords（没写时用 SillyTavern 的默认：子串）和 caseSensitive 都保留，/正则/标志 形式的关键词按正则
保留（要用向前断言或反向引用的去掉）；position/depth 变成
140 号轨（constant）或预处理的命中块（关键词）；probability、scan depth、groups、定时效果、递归，以及整本的
scan_depth/token_budget 会点名说没带过来。比它的块长的条目（constant 560、关键词 800，含框架）在换行处拆开；
单独一段就太长时，写成关着的条目并写明大小。开和关照 SillyTavern 的读法（disable == true、constant 为真值、角色卡
世界书的 enabled、正文开头的 @@activate 或 @@dont_activate）。没有一条可写的文件会被拒绝（退出码 2），什么都不建；每一条的位置上都是链接或文件夹时，
什么都不写，退出码 2。`,
  'cli.worldbook.import.file': 'SillyTavern 导出的 World Info 文件（JSON），或带 character_book 的角色卡（JSON 或 PNG）',
  'cli.worldbook.import.dryRun': '只说会写什么，什么都不写',
  'cli.memory.recheck.scope': 'month 或 year',
} as const
