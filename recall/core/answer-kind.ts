// What kind of answer a question asks for. "我的狗叫什么名字？" wants a name, "How much did my
// phone cost?" a sum of money, "我的瑜伽课在星期几？" a day of the week. A memory that holds the
// question's topic but nothing of that kind (我怕狗 for the dog's name) cannot answer it: when
// none of the memories about the topic holds an answer of the kind, recall says nothing
// (abstain.ts `no-answer`; docs/decisions/048). Only kinds that a memory's words show reliably
// are asked for; "when" is not one, since every memory carries its own date — except a birthday,
// a day of the year that no memory's own date is (docs/decisions/088).

import { stemEnglish } from './stem.ts'

/**
 * A name, a brand, a sum of money, an age, a day of the week, a birthday's date; a blood type, a
 * height, a weight, a colour, a password (docs/decisions/302). Not "how many" nor
 * "how long": their answer is often counted over memories (how many hikes) or read from their
 * dates (how long since).
 */
export type AnswerKind = 'name' | 'brand' | 'price' | 'age' | 'weekday' | 'birthday' | 'number' | 'bloodType' | 'height' | 'weight' | 'colour' | 'password'

// Each test runs on the message folded to simplified Chinese and lower case. The order matters:
// 什么牌子 is a brand before 什么 names anything.
const ASKS: readonly (readonly [AnswerKind, RegExp])[] = [
  [
    'name',
    /叫什么|叫啥|叫甚么|什么名字|啥名字|名字是什么|名字叫什么|\bwhat(?:'s| is| was| are)\b[^?？]*\bnames?\b|\bwhat did i (?:name|call)\b|\bwhat (?:is|was|'s) (?:it|he|she|they) called\b/,
  ],
  ['brand', /什么牌子|啥牌子|哪个牌子|哪个品牌|什么品牌|\b(?:what|which) brand\b/],
  [
    'price',
    /多少钱|几块钱|价格是|价钱|花了多少|多少元|\bhow much\b[^?？]*\b(?:cost|costs|pay|paid|spend|spent|charge|charged)\b|\bwhat(?:'s| is| was) the price\b/,
  ],
  ['age', /几岁|多大岁数|岁数|多大了|年纪多大|多少岁|\bhow old\b/],
  ['weekday', /星期几|周几|礼拜几|\b(?:what|which) day of the week\b|\bwhat weekday\b/],
  ['bloodType', /血型|\bblood (?:type|group)\b/],
  // 多高 of a fever, a blood pressure or a building is not a person's height.
  ['height', /身高|(?<!血压|血糖|体温|温度|烧|烧到|分数|楼|山|水平|价格|工资|收入)多高|\bhow tall\b|\bheight\b/],
  ['weight', /体重|多重|多少斤|多少公斤|几斤|几公斤|\bhow much\b[^?？]*\bweigh\b|\bweight\b/],
  ['colour', /什么颜色|啥颜色|哪个颜色|哪种颜色|什么色的|啥色的|\b(?:what|which) colou?r\b/],
  // The password itself, not where it is kept (我的密码存在哪里).
  ['password', /(?:密码|口令)(?:是|是个|设的是|设成)?(?:多少|什么|啥|几)|\bwhat(?:'s| is| was| are)\b[^?？]*\b(?:password|passcode|passphrase|pin)\b/],
  [
    'number',
    /(?:车牌|号码|电话|手机号|门牌|尾号)[号码]?(?:是)?(?:多少|几号|是什么|是啥|啥)|\bwhat(?:'s| is| was| are)\b[^?？]*\b(?:phone|plate|registration|licen[cs]e|house|flat|room|apartment|door) (?:number|no)\b/,
  ],
  [
    'birthday',
    /生日是(?:哪天|哪一天|几号|几月|什么时候|啥时候)|(?:哪天|哪一天|几号|几月几[号日]?|什么时候|啥时候)(?:过)?生日|(?:哪天|哪一天|几月几[号日]?|什么时候|啥时候)(?:出)?生的|\bwhen(?:'s| is| was| does| did)?\b[^?？]*\b(?:birthday|born)\b|\bwhat(?:'s| is)? (?:the )?date\b[^?？]*\bbirthday\b/,
  ],
]

/** The kind of answer `folded` (simplified, lower case) asks for, if it asks for one a memory's words can show. */
export function askedKind(folded: string): AnswerKind | undefined {
  for (const [kind, pattern] of ASKS) if (pattern.test(folded)) return kind
  return undefined
}

const CHINESE_NUMERALS = new Set(Array.from('一二两三四五六七八九十百千万亿半零〇'))
// As tokenize stems them (twelve → twelv).
const ENGLISH_NUMBERS: ReadonlySet<string> = new Set(
  'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million half dozen'
    .split(' ')
    .map(stemEnglish),
)
const MONEY =
  /^(?:元|块|钱|万|毛|角|刀|美元|港币|日元|rmb|yuan|twd|ntd|usd|hkd|jpy|eur|euro|gbp|pound|dollar|buck|quid|cent|price|cost|paid|pai|pay|spent|spend)$/
// 百 千 万 亿 and a number of three digits or more are sums far more often than sizes or counts.
const SUM = /^(?:[百千万亿]|\d[\d,.]{2,})$/
const WEEKDAY = /^(?:(?:周|星期|礼拜)[一二三四五六日天末]?|monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|weekday)s?$/
// How a memory names something: 叫团子, 名叫, 取名; named, called, nickname (as tokenize stems them: name, call, nickname).
const NAMING = /^(?:叫|名|名字|名叫|取名|起名|昵称|外号|小名|name|call|nickname)$/

// An age as a memory writes it: the number with its unit (三岁, 两周岁), or a number beside one of these.
const AGED = /^[\d一二两三四五六七八九十]+(?:岁|周岁)$/
const AGE_MARK = /^(?:岁|周岁|寿|大寿|old|age|aged|turn)$/

// A day of the year as a memory writes it: 三月, 五号, 20日, 腊月; March, 3rd; or a year (born in 2021).
const CALENDAR_DAY = /^(?:[\d一二三四五六七八九十两廿]+[月号日]|[正腊冬]月|\d{1,2}(?:st|nd|rd|th)|(?:19|20)\d\d)$/
const MONTHS: ReadonlySet<string> = new Set(
  'january february march april june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec'
    .split(' ')
    .map(stemEnglish),
)

// A number one looks up: three digits or more, or letters and digits together (粤A12345 → 12345, B7X, 8F).
const LOOKUP_NUMBER = /^(?:\d{3,}|(?=[a-z\d]*\d)(?=[a-z\d]*[a-z])[a-z\d]{3,})$/

// How a memory names a make: 牌子, 品牌, brand (make is mostly a verb).
const BRANDING = /^(?:牌|牌子|品牌|brand)$/

// How a memory says a blood type: 血型, O型血 (型血), blood type, Rh, 熊猫血 (猫血); "O negative" keeps only its sign.
const BLOOD_TYPE = /^(?:血型|型血|猫血|rh|negativ|posit)$/
// A height: 身高, 个子, 一米八 (一米, 米八), 183cm, tall, feet; a number beside 米.
const HEIGHT = /^(?:身高|个子|个头|一米|米[五六七八九]|tall|height|heigh|cm|厘米|公分|ft|feet|foot|inch|inche|\d+(?:cm|ft|m))$/
// A weight: 体重, 斤, 公斤, kg, weigh, a number beside 斤.
const WEIGHT = /^(?:体重|斤|公斤|千克|kg|weigh|weight|lb|lbs|pound|kilo|\d+(?:kg|lbs?))$/
// A colour word, Chinese (single characters as tokenize emits them) or English.
const COLOUR =
  /^(?:颜色|色|红|橙|黄|绿|青|蓝|紫|黑|白|灰|粉|棕|褐|咖啡色|米色|金色|银色|colou?r|red|orang|yellow|green|blue|purpl|black|white|grey|gray|pink|brown|beig|navy|silver|gold|teal|maroon|cream)$/
// A password: the word itself, or a token of letters and digits together (abc12345).
const PASSWORD = /^(?:密码|口令|password|passcode|passphras|pin|(?=[a-z\d]*\d)(?=[a-z\d]*[a-z])[a-z\d]{6,})$/

/** A term that is or spells a number: 38, 九, 十, two, half. */
export function isNumberTerm(term: string): boolean {
  return /^\d/.test(term) || CHINESE_NUMERALS.has(term) || ENGLISH_NUMBERS.has(term)
}

/**
 * True when a memory with these index terms (as tokenize emits them) holds an answer of `kind`.
 * A name is a naming word, or a word `isName` says is one (a dictionary name, a Latin word no
 * dictionary knows: Mochi, Kevin, Asics).
 */
export function holdsAnswer(kind: AnswerKind, terms: Iterable<string>, isName: (term: string) => boolean): boolean {
  if (kind === 'name' || kind === 'brand') {
    const marks = kind === 'name' ? NAMING : BRANDING
    for (const term of terms) if (marks.test(term) || isName(term)) return true
    return false
  }
  const { word, pair } = SHOWN_BY[kind]
  let first = false
  let second = false
  for (const term of terms) {
    if (word(term)) return true
    if (pair === undefined) continue
    first ||= pair[0](term)
    second ||= pair[1](term)
    if (first && second) return true
  }
  return false
}

/** How a memory's terms show an answer of a kind: one word that is one, or two words found together (a number beside its unit). */
interface Shown {
  word: (term: string) => boolean
  pair?: readonly [(term: string) => boolean, (term: string) => boolean]
}

const SHOWN_BY: Record<Exclude<AnswerKind, 'name' | 'brand'>, Shown> = {
  weekday: { word: (t) => WEEKDAY.test(t) },
  // A number said as an age: 三岁, 九十大寿, 30 years old, turned 30 (a number alone is as often a count or a size).
  age: { word: (t) => AGED.test(t), pair: [isNumberTerm, (t) => AGE_MARK.test(t)] },
  number: { word: (t) => LOOKUP_NUMBER.test(t) },
  // 12月20日 comes apart as 12, 月, 20, 日: a month character beside a number is a date too.
  birthday: { word: (t) => CALENDAR_DAY.test(t) || MONTHS.has(t), pair: [isNumberTerm, (t) => t === '月' || t === '号'] },
  bloodType: { word: (t) => BLOOD_TYPE.test(t), pair: [(t) => t === 'blood' || t === '血', (t) => t === 'type' || t === 'group' || t === '型'] },
  height: { word: (t) => HEIGHT.test(t), pair: [isNumberTerm, (t) => t === '米' || t === 'metr' || t === 'meter'] },
  weight: { word: (t) => WEIGHT.test(t) },
  colour: { word: (t) => COLOUR.test(t) },
  password: { word: (t) => PASSWORD.test(t) },
  // A sum: a number beside a unit of money (600 yuan, 九百块), or one no size or count is
  // written in (三千二, 二十万, 899 of $899, whose sign the tokenizer drops).
  price: { word: (t) => SUM.test(t), pair: [isNumberTerm, (t) => MONEY.test(t)] },
}
