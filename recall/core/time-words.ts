// Names and dates treated as such: a "when" question wants a memory that says
// when ("yesterday", "last week", "上个月"), even though the question's own words
// never include those. A memory that holds a time expression gets one extra index
// term, TIME_TERM; a question that asks when adds it to its terms (see `timeWeight`).

/** Cannot come out of the tokenizer (⟨ ⟩ are punctuation, never part of a word). */
export const TIME_TERM = '⟨time⟩'

const DAYS = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday'
// "may" and "march" are left out: far more often a verb than a month.
const MONTHS = 'january|february|april|june|july|august|september|october|november|december'
const UNITS = 'week|month|year|night|weekend|morning|evening|afternoon|summer|winter|spring|fall|autumn|' + DAYS
const ENGLISH_TIME = new RegExp(
  `\\b(?:yesterday|today|tonight|tomorrow|ago|recently|weekend|(?:last|next|this|past|coming) (?:${UNITS})|${DAYS}|${MONTHS}|(?:19|20)\\d\\d)\\b`,
  'u',
)
const CHINESE_TIME =
  /昨天|今天|明天|前天|后天|昨晚|今晚|上周|下周|这周|本周|上个?月|下个?月|这个月|去年|今年|明年|前年|周[一二三四五六日末]|星期|礼拜|\d+\s*[月号日]|[一二三四五六七八九十]+月/u

const ASKS_WHEN_ENGLISH = /\b(?:when|how long|how often|what (?:time|date|day|year|month))\b/u
const ASKS_WHEN_CHINESE = /什么时候|啥时候|哪天|哪一天|几号|几月|哪年|哪一年|多久|多长时间/u

/** True when `text` (already lower-cased) says when something happened. */
export function mentionsTime(text: string): boolean {
  return ENGLISH_TIME.test(text) || CHINESE_TIME.test(text)
}

/** True when the question asks when (or how long ago). */
export function asksWhen(text: string): boolean {
  const lower = text.toLowerCase()
  return ASKS_WHEN_ENGLISH.test(lower) || ASKS_WHEN_CHINESE.test(lower)
}

// A festival is often named by its day on the lunar calendar (八月十五 for 中秋): a person who
// wrote 中秋节 asks about 八月十五. A day followed by 号 or 日 is a calendar date, not a festival.
const LUNAR_DAYS: readonly (readonly [RegExp, string])[] = [
  [/八月十五/u, '中秋节'],
  [/正月十五/u, '元宵节'],
  [/五月初五/u, '端午节'],
  [/七月初七/u, '七夕'],
  [/九月初九/u, '重阳节'],
  [/腊月初八/u, '腊八'],
  // Not 年三十 alone: 今年三十岁, 去年三十号.
  [/大年三十|腊月三十|除夕夜/u, '除夕'],
  [/大年初一|正月初一/u, '春节'],
]
/** After a day: a calendar date (号, 日), an age or a count, not a festival. */
const NOT_A_FESTIVAL = /^[号日岁周万年]/u

/** The festivals `text` (already normalised: simplified, lower-cased) names by their lunar day, with the words that named it. */
export function festivalsNamed(text: string): { day: string; festival: string }[] {
  const out: { day: string; festival: string }[] = []
  for (const [pattern, festival] of LUNAR_DAYS) {
    const found = pattern.exec(text)
    if (found !== null && !NOT_A_FESTIVAL.test(text.slice(found.index + found[0].length))) out.push({ day: found[0], festival })
  }
  return out
}
