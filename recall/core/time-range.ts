// The stretch of days a message names: 昨天, 上周, 去年冬天, "last weekend", "in March". A memory is
// dated (`at`), so "昨天带闺女出去玩，发生啥了" is answered by what was written yesterday, whatever its
// words: time-words.ts only knows that a memory *says* a time, not when it was written. Days are the
// person's: the calendar of the process's time zone, weeks from Monday. Pure: the moment is passed in.

/** One day in milliseconds: the unit of every date rule in recall (time ranges, the timeline's days, recency). */
export const DAY_MS = 86_400_000

/** What a message's time words name: [fromMs, toMs), and the words that named it (as written, normalised). */
export interface NamedTime {
  fromMs: number
  toMs: number
  words: string[]
}

const CN_NUMBER: Readonly<Record<string, number>> = { 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9, 十: 10 }
const EN_NUMBER: Readonly<Record<string, number>> = { a: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 }
/** 周一 … 周日 as days after Monday. */
const CN_WEEKDAY: Readonly<Record<string, number>> = { 一: 0, 二: 1, 三: 2, 四: 3, 五: 4, 六: 5, 日: 6, 天: 6 }
const EN_WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']
const EN_MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december']
/** A season's first month (0-based) and its length: winter runs from December into the next year. */
const SEASONS: Readonly<Record<string, number>> = { 春: 2, 夏: 5, 秋: 8, 冬: 11, spring: 2, summer: 5, autumn: 8, fall: 8, winter: 11 }

/** A Chinese number of one to three characters (三, 十二, 二十) or digits; NaN for anything else. */
function chineseNumber(text: string): number {
  if (/^\d+$/.test(text)) return Number(text)
  if (text === '十') return 10
  const ten = text.indexOf('十')
  if (ten === -1) return text.length === 1 ? (CN_NUMBER[text] ?? NaN) : NaN
  const tens = ten === 0 ? 1 : (CN_NUMBER[text.slice(0, ten)] ?? NaN)
  const ones = ten === text.length - 1 ? 0 : (CN_NUMBER[text.slice(ten + 1)] ?? NaN)
  return tens * 10 + ones
}

/** The calendar of one moment, in the process's time zone. */
class Calendar {
  readonly year: number
  readonly month: number
  readonly date: number
  /** Days since Monday. */
  readonly weekday: number
  constructor(nowMs: number) {
    const d = new Date(nowMs)
    this.year = d.getFullYear()
    this.month = d.getMonth()
    this.date = d.getDate()
    this.weekday = (d.getDay() + 6) % 7
  }
  /** Midnight `offset` days from today. */
  day(offset: number): number {
    return new Date(this.year, this.month, this.date + offset).getTime()
  }
  /** Midnight of Monday `weeks` weeks from this one. */
  week(weeks: number): number {
    return this.day(weeks * 7 - this.weekday)
  }
  monthStart(year: number, month: number): number {
    return new Date(year, month, 1).getTime()
  }
  /** The days of a month: this year's when it has begun, else last year's (三月 said in June is this March). */
  recentMonth(month: number, year?: number): [number, number] {
    const y = year ?? (month <= this.month ? this.year : this.year - 1)
    return [this.monthStart(y, month), this.monthStart(y, month + 1)]
  }
  /** The season that began in `year` (winter: December of it to February), or the latest one begun. */
  season(first: number, year?: number): [number, number] {
    const begun = this.month >= first ? this.year : this.year - 1
    const y = year ?? begun
    return [this.monthStart(y, first), this.monthStart(y, first + 3)]
  }
  /** The latest weekday (0 = Monday) before today. */
  lastWeekday(day: number): [number, number] {
    const back = ((this.weekday - day + 6) % 7) + 1
    return [this.day(-back), this.day(1 - back)]
  }
}

type Rule = readonly [RegExp, (m: RegExpExecArray, c: Calendar) => [number, number] | undefined]

/**
 * Holidays on fixed days of the calendar, with the days a memory of them is written: the holiday
 * and a day or two after it (a trip is often written on the way home). A holiday named by its
 * lunar day (中秋, 春节) moves with the year: time-words.ts finds it by its name instead.
 */
const HOLIDAYS: readonly { names: string; month: number; first: number; days: number }[] = [
  // 国庆, 十一长假, 黄金周 (the October one: the May week is 五一), National Day, golden week.
  { names: '国庆节?|国庆假期|十一(?:长假|假期|黄金周)|黄金周|national day|golden week', month: 9, first: 1, days: 8 },
  { names: '(?<![\\d一二三四五六七八九十])五一(?:假期|长假|劳动节)?(?![\\d号日月点路街]|大道|广场)|劳动节|may day|labou?r day', month: 4, first: 1, days: 6 },
  { names: "双十一|双11|singles(?:'|’)? day", month: 10, first: 11, days: 2 },
  { names: '平安夜|圣诞节?|christmas(?: eve| day)?|xmas', month: 11, first: 24, days: 4 },
  { names: "元旦|new year(?:'|’)?s day", month: 11, first: 31, days: 3 },
  { names: "情人节|valentine(?:'|’)?s(?: day)?", month: 1, first: 14, days: 2 },
]
const HOLIDAY_YEAR = "(去年|今年|前年|(\\d{4})年?|(?:(last|this) year(?:'|’)?s))?\\s*的?\\s*"
const HOLIDAY_AFTER_YEAR = '(?:\\s*(?:in|of) (\\d{4}))?'

/** The days of one holiday in the year the message names (去年国庆, golden week in 2024), else the latest one begun. */
function holiday(m: RegExpExecArray, c: Calendar, month: number, first: number, days: number): [number, number] | undefined {
  const [, relative, digits, english, after] = m
  const named = digits ?? after
  let year: number
  if (named !== undefined) year = Number(named)
  else if (relative === '去年' || english === 'last') year = c.year - 1
  else if (relative === '前年') year = c.year - 2
  else if (relative === '今年' || english === 'this') year = c.year
  else year = c.day(1) > new Date(c.year, month, first).getTime() ? c.year : c.year - 1
  if (!(year > 1900 && year < 3000)) return undefined
  const from = new Date(year, month, first).getTime()
  return [from, new Date(year, month, first + days).getTime()]
}

const HOLIDAY_RULES: readonly Rule[] = HOLIDAYS.map(({ names, month, first, days }) => [
  new RegExp(`${HOLIDAY_YEAR}(?:${names})${HOLIDAY_AFTER_YEAR}`, 'u'),
  (m, c) => holiday(m, c, month, first, days),
])

// Narrow before broad: the first rule that matches wins (去年冬天 before 去年, 上周末 before 上周).
const RULES: readonly Rule[] = [
  [/前天|the day before yesterday/u, (_, c) => [c.day(-2), c.day(-1)]],
  [/昨天|昨日|昨晚|昨儿|yesterday|last night/u, (_, c) => [c.day(-1), c.day(0) + DAY_MS / 4]],
  [/今天|今日|今早|今晚|今儿|today|tonight|this morning|this afternoon|this evening/u, (_, c) => [c.day(0), c.day(1)]],
  [/这两天|这几天|最近几天|前几天|这些天|these days|(?:the )?(?:past|last) (?:few|couple of) days|a few days ago/u, (_, c) => [c.day(-5), c.day(1)]],
  [
    /(?:(\d+|[一二两三四五六七八九十]+)天前|(\d+|a|one|two|three|four|five|six|seven|eight|nine|ten) days? ago)/u,
    (m, c) => {
      const n = m[1] !== undefined ? chineseNumber(m[1]) : (EN_NUMBER[m[2]!] ?? Number(m[2]))
      return Number.isFinite(n) && n > 0 && n <= 60 ? [c.day(-n - 1), c.day(-n + 1)] : undefined
    },
  ],
  [/上上(?:个)?(?:周|星期|礼拜)|the week before last|two weeks ago/u, (_, c) => [c.week(-2), c.week(-1)]],
  [/上(?:个)?(?:周末)|last weekend/u, (_, c) => [c.week(-1) + 5 * DAY_MS, c.week(0)]],
  [/(?:这|本)(?:个)?周末|this weekend/u, (_, c) => [c.week(0) + 5 * DAY_MS, c.week(1)]],
  // A weekend alone is the latest one begun (said on a Monday: the one just past).
  [/(?<!每个?)周末|(?<!every )\bweekend\b/u, (_, c) => (c.weekday >= 5 ? [c.week(0) + 5 * DAY_MS, c.week(1)] : [c.week(-1) + 5 * DAY_MS, c.week(0)])],
  [
    /上(?:个)?(?:周|星期|礼拜)([一二三四五六日天])/u,
    (m, c) => {
      const at = c.week(-1) + CN_WEEKDAY[m[1]!]! * DAY_MS
      return [at, at + DAY_MS]
    },
  ],
  [/上(?:个)?(?:周|星期|礼拜)|last week/u, (_, c) => [c.week(-1), c.week(0)]],
  [/(?:这|本)(?:个)?(?:周|星期|礼拜)|this week/u, (_, c) => [c.week(0), c.day(1)]],
  [/(?<![每下])(?:周|星期|礼拜)([一二三四五六日天])/u, (m, c) => c.lastWeekday(CN_WEEKDAY[m[1]!]!)],
  [new RegExp(`(?<!every )\\b(?:last |on )?(${EN_WEEKDAYS.join('|')})\\b`, 'u'), (m, c) => c.lastWeekday(EN_WEEKDAYS.indexOf(m[1]!))],
  [
    // A season or a month said bare may be ahead as well as behind (秋天的机票, "the trip in the autumn"): only with its year.
    /(去年|今年|前年)([春夏秋冬])(?:天|季)|\b(last|this) (spring|summer|autumn|fall|winter)\b/u,
    (m, c) => {
      const which = m[1] ?? m[3]
      const year = which === '去年' || which === 'last' ? c.year - 1 : which === '今年' || which === 'this' ? c.year : c.year - 2
      return c.season(SEASONS[m[2] ?? m[4]!]!, year)
    },
  ],
  [
    /(去年|今年)?(\d{1,2}|[一二三四五六七八九十]{1,3})月(?:份)?(?:(\d{1,2}|[一二三四五六七八九十]{1,3})[号日])?/u,
    (m, c) => {
      const month = chineseNumber(m[2]!) - 1
      if (!(month >= 0 && month < 12) || (m[1] === undefined && m[3] === undefined)) return undefined
      const year = m[1] === '去年' ? c.year - 1 : m[1] === '今年' ? c.year : undefined
      const [from, to] = c.recentMonth(month, year)
      if (m[3] === undefined) return [from, to]
      const date = chineseNumber(m[3])
      if (!(date >= 1 && date <= 31)) return undefined
      const at = new Date(new Date(from).getFullYear(), month, date).getTime()
      return [at, at + DAY_MS]
    },
  ],
  [
    new RegExp(`\\b(?:(last|this) (${EN_MONTHS.join('|')})|(${EN_MONTHS.join('|')}) (?:of )?(last|this) year)\\b`, 'u'),
    (m, c) => c.recentMonth(EN_MONTHS.indexOf((m[2] ?? m[3])!), (m[1] ?? m[4]) === 'last' ? c.year - 1 : c.year),
  ],
  // A holiday before the month it falls in (十一长假 is no November) and before a bare year (去年国庆 is not all of last year).
  ...HOLIDAY_RULES,
  [/上(?:个)?月|last month/u, (_, c) => [c.monthStart(c.year, c.month - 1), c.monthStart(c.year, c.month)]],
  [/(?:这|本)(?:个)?月|this month/u, (_, c) => [c.monthStart(c.year, c.month), c.day(1)]],
  [/前年|the year before last/u, (_, c) => [c.monthStart(c.year - 2, 0), c.monthStart(c.year - 1, 0)]],
  [/去年|last year/u, (_, c) => [c.monthStart(c.year - 1, 0), c.monthStart(c.year, 0)]],
  [/今年|this year/u, (_, c) => [c.monthStart(c.year, 0), c.day(1)]],
]

/** The days `text` (normalised: simplified, lower case) names, as of `nowMs`; undefined when it names none. */
export function namedTime(text: string, nowMs: number): NamedTime | undefined {
  if (!Number.isFinite(nowMs)) return undefined
  const calendar = new Calendar(nowMs)
  for (const [pattern, range] of RULES) {
    const m = pattern.exec(text)
    if (m === null) continue
    const found = range(m, calendar)
    if (found === undefined || !(found[0] < found[1])) continue
    return { fromMs: found[0], toMs: found[1], words: [m[0].trim()] }
  }
  return undefined
}
