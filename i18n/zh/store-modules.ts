/** 卷、余页、本人记号、同步冲突、链接、A/B 评审、git 仓库说的话（决定 084）。 */
export const storeModulesZh = {
  'store.part.meta-json': '{file} 不是有效的 JSON（{error}）',
  'store.part.meta-not-utf8': '{file} 不是有效的 UTF-8（用别的编码保存过？）',
  'store.part.marks.version': '{file} 不是第 1 版的本人记号记录',
  'store.part.volumes.not-object': '不是一个对象',
  'store.part.volumes.fields': '缺 "current" 和 "volumes"',
  'store.part.volumes.volume': '每一卷都要有 id 和 started_at',
  'store.part.volumes.current': '当前卷 {current} 不在列表里',
  'store.refused.no-persona.none': '没找到可以算指纹的人设文件；请给出人设所在的文件夹',
  'store.refused.no-persona.unreadable': '读不了人设文件 {path}：{error}',
  'store.refused.meta-json.volumes': '{file} 不是有效的卷索引（{why}）；请手动改好，或从快照里恢复',
  'store.refused.meta-json.volumes-json': '{problem}；请手动改好，或从快照里恢复——什么都没改',
  'store.refused.person-only.volume': '只有你本人能开新卷；昔涟可以在梦的日志里提议',
  'store.refused.confirm.volume': '开新卷是给大改动用的（人设文字、五育、存储格式）。确定要开，请加上 --confirm {word}',
  'store.refused.bad-input.volume-reason': '请用 --reason 给新卷写一行理由（最多 200 个字，不含控制字符）',
  'store.refused.meta-json.pending': '{problem}。先改好或恢复它再复核；什么都没改。',
  'store.refused.person-only.tombstone': '只有你本人能恢复一条立了碑的记忆',
  'store.refused.meta-json.marks':
    '{problem}；什么都没写。请从快照里恢复它（cyrene restore）或把它挪开，再为你的条目运行 `cyrene memory marks --confirm <id>`。',
  'store.refused.bad-input.not-yours':
    '条目 {id} 没写明是你的（注释里没有 "base": true 或 "by": "person"）；什么都没记下。你自己的条目请用 `cyrene memory write` 写',
  'store.refused.person-only.conflict': '只有你本人能解决同步冲突（cyrene memory resolve）。什么都没改。',
  'store.refused.no-such-conflict': '没有 "{what}" 这个同步冲突。`cyrene memory check` 会列出它们（条目 id 或冲突 id）。什么都没改。',
  'store.refused.bad-keep': '冲突 {id} 是整个文件（{file}）：只能选 a 或 b。什么都没改。',
  'store.refused.bad-input.link-ids': '请给出两个 id：from（链接从哪条出发）和 to（指向哪条）',
  'store.refused.bad-input.link-self': '一条记忆不能链接到自己；请给两个不同的 id',
  'store.refused.bad-input.link-type': 'type 只能是 {types} 之一（或留空）；什么都没写',
  'store.refused.not-found.link-from': '没有 id 为 {id} 的条目；用 memory_search 找 id',
  'store.refused.person-only.link-base':
    '条目 {from} 是你本人的（你写下或导入的），只有你本人能改。请从另一条链接过来（从 {to} 到 {from}）；链接*到*你本人的条目没问题',
  'store.refused.git-config.not-folder': '{path} 不是文件夹（是链接或文件）：同步只用它自己的 .git 文件夹。把它挪开，再同步一次。',
  'store.refused.git-config.foreign-one':
    '记忆库的 .git/config 里有 {keys}，同步不允许（它可能运行命令，或把你的记忆发到别处）。用 `git -C {root} config --unset <key>` 删掉它，再同步一次。什么都没改。',
  'store.refused.git-config.foreign':
    '记忆库的 .git/config 里有 {keys}，同步不允许（它们可能运行命令，或把你的记忆发到别处）。用 `git -C {root} config --unset <key>` 删掉它们，再同步一次。什么都没改。',
  'store.refused.git-foreign.local':
    '{files}：记忆库里 git 自己的文件，会让同步漏掉记忆，并在你的其他机器上删掉它们。把它删掉（只留在这台机器上的东西写在同步自己的根目录 .gitignore 里），再同步一次。什么都没发出去。',
  'store.refused.git-foreign.remote':
    '远端有 {files}：记忆库里 git 自己的文件，会让同步漏掉记忆，并在这里删掉它们。把它从远端删掉，再同步一次。这里没有因它改动任何东西。',
  'store.refused.git-name.local': '{files}：文件名里有换行，同步没法经 git 把它读回来。把文件改成一行的名字，再同步一次。什么都没发出去。',
  'store.refused.git-name.remote':
    '远端有 {files}：文件名里有换行，同步没法经 git 把它读回来。在发来它的那台机器上改名，再同步一次。这里没有因它改动任何东西。',
  'store.refused.sync-file-busy':
    '同步写 {file} 的时候，它一直在变（是不是有程序在反复保存它？）。同步停在了这个文件之前；等它不再变化，下一条 cyrene 命令会把同步做完，它的内容一点都没被覆盖。',
  'store.refused.git-remote': '{problem}。什么都没改。',
  'store.refused.bad-input.verdict': '--verdict 只能是 keep 或 revert，收到的是 {got}',
  'store.refused.bad-input.ab-report': '{file} 不是人设 A/B 报告（npm run persona:ab 写出的 report.html 或 report.md）',
  'store.refused.ab-mismatch': '{file} 是给人设 {made}… 做的，可现在的人设是 {now}…：请用你开卷时的人设重新运行 npm run persona:ab',
} as const
