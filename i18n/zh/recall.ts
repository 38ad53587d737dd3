/** Why recall brought nothing (recall/core/abstain.ts's reasons), in Chinese: the doctor and `cyrene memory recall`. */
export const recallZh = {
  'recall.silence.empty-query': '这句话里没有能找的词（只有标点、停用词，或什么都没有）',
  'recall.silence.empty-index': '还没有索引任何记忆',
  'recall.silence.no-match': '没有哪条记忆和这句话有相同的词（词典译法也算上）',
  'recall.silence.low-coverage': '最相关的记忆只覆盖这句话所问的 {coverage}%，不到所需的 {needed}%：记下的东西似乎都不是在说它',
  'recall.silence.weak-match': '最相关的记忆只覆盖这句话所问的 {coverage}%（不到 {needed}%），而且只靠一些常见的词：记下的东西似乎都不是在说它',
  'recall.silence.unknown-person': '这句话问到的人没有哪条记忆提到过，最相关的记忆也只覆盖它的 {coverage}%（不到 {needed}%）',
  'recall.silence.unknown-name': '这句话提到的地方或名字没有哪条记忆提到过，最相关的记忆也只覆盖它的 {coverage}%（不到 {needed}%）',
  'recall.silence.missing-thing':
    '找到的记忆和这句话只有动作或形容相同，没有它问的那样东西，也没有那一类里的任何一种；它们只覆盖这句话的 {coverage}%（不到 {needed}%）',
  'recall.silence.no-answer': '说到这件事的记忆里没有这句话要的那种答案（名字、牌子、钱数、年龄、星期几、生日是哪天、车牌或电话这类号码）',
  'recall.silence.only-characters': '找到的记忆和这句话只有零散的单字相同（抽烟里的“抽”只出现在“抽屉”里），没有一个完整的词，也没有词的译法',
  'recall.silence.left-out': '找到的命中已经在 {{cyrene_memory}} 里、彼此近乎重复，或放不进预算',
  'recall.silence.unknown': '没有说明原因（{reason}）',
  'recall.cli.nothing': '什么都不会带上（0/{budget} 字）',
  'recall.cli.nothingBecause': '什么都不会带上（0/{budget} 字）：{why}',
  'recall.cli.hits': '{n} 条命中，{chars}/{budget} 字',
  'recall.cli.cut': '，{n} 条因预算截短或略去',
  'recall.cli.inBlock': '  略去 {id}：{{cyrene_memory}} 已经显示了它',
  'recall.cli.duplicate': '  略去 {id}：和一条更好的命中近乎重复',
} as const
