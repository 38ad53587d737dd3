import { describe, expect, it } from 'vitest'
import { RecallIndex } from './recall-index.ts'
import type { RecallOptionsInput } from './options.ts'
import { namedTime } from './time-range.ts'

// Local times throughout: the days are the person's, whatever zone the tests run in.
const NOW = new Date(2026, 5, 15, 12).getTime() // Monday 15 June 2026, noon
const day = (y: number, m: number, d: number): number => new Date(y, m - 1, d).getTime()
const range = (text: string): [string, string] | undefined => {
  const found = namedTime(text, NOW)
  if (found === undefined) return undefined
  const show = (ms: number): string => {
    const d = new Date(ms)
    return `${d.getFullYear()}-${d.getMonth() + 1}-${d.getDate()}${d.getHours() === 0 ? '' : ` ${d.getHours()}h`}`
  }
  return [show(found.fromMs), show(found.toMs)]
}

describe('namedTime', () => {
  it('reads the days before today', () => {
    expect(range('昨天带闺女出去玩，发生啥了？')).toEqual(['2026-6-14', '2026-6-15 6h'])
    expect(range('what did i eat yesterday?')).toEqual(['2026-6-14', '2026-6-15 6h'])
    expect(range('前天')).toEqual(['2026-6-13', '2026-6-14'])
    expect(range('今天')).toEqual(['2026-6-15', '2026-6-16'])
    expect(range('三天前')).toEqual(['2026-6-11', '2026-6-13'])
    expect(range('two days ago')).toEqual(['2026-6-12', '2026-6-14'])
  })

  it('reads weeks from Monday, and the weekend just past', () => {
    expect(range('上周去了哪')).toEqual(['2026-6-8', '2026-6-15'])
    expect(range('what was wrong with the dog last week?')).toEqual(['2026-6-8', '2026-6-15'])
    expect(range('上周三')).toEqual(['2026-6-10', '2026-6-11'])
    expect(range('上周末')).toEqual(['2026-6-13', '2026-6-15'])
    expect(range('周末干嘛了')).toEqual(['2026-6-13', '2026-6-15'])
    expect(range('上上周')).toEqual(['2026-6-1', '2026-6-8'])
    expect(range('last friday')).toEqual(['2026-6-12', '2026-6-13'])
  })

  it('reads months, years and seasons with their year', () => {
    expect(range('上个月')).toEqual(['2026-5-1', '2026-6-1'])
    expect(range('去年')).toEqual(['2025-1-1', '2026-1-1'])
    expect(range('去年冬天')).toEqual(['2025-12-1', '2026-3-1'])
    expect(range('去年春天')).toEqual(['2025-3-1', '2025-6-1'])
    expect(range('今年3月')).toEqual(['2026-3-1', '2026-4-1'])
    expect(range('去年十月')).toEqual(['2025-10-1', '2025-11-1'])
    expect(range('3月5号')).toEqual(['2026-3-5', '2026-3-6'])
    expect(range('last october')).toEqual(['2025-10-1', '2025-11-1'])
  })

  it('names nothing where the time may be ahead, habitual or only a length', () => {
    expect(range('How much are the plane tickets for our trip in the autumn?')).toBeUndefined()
    expect(range('秋天的机票买了吗')).toBeUndefined()
    expect(range('下周三')).toBeUndefined()
    expect(range('每周三')).toBeUndefined()
    expect(range('每个周末')).toBeUndefined()
    expect(range('学了三个月日语')).toBeUndefined()
    expect(range('我的猫叫什么？')).toBeUndefined()
    expect(range('I fall asleep late')).toBeUndefined()
  })

  it('reads a holiday on a fixed day as its days and a day or two after, in the year named or the latest begun', () => {
    expect(range('去年国庆我跑哪玩去了')).toEqual(['2025-10-1', '2025-10-9'])
    expect(range("where'd we go for golden week in 2024")).toEqual(['2024-10-1', '2024-10-9'])
    expect(range('2024年国庆节')).toEqual(['2024-10-1', '2024-10-9'])
    expect(range('十一长假去哪了')).toEqual(['2025-10-1', '2025-10-9'])
    // Said on 15 June: this year's May Day has been, this year's Christmas has not.
    expect(range('五一去哪了')).toEqual(['2026-5-1', '2026-5-7'])
    expect(range('圣诞节晚上吃了什么')).toEqual(['2025-12-24', '2025-12-28'])
    expect(range("what did we do last year's christmas?")).toEqual(['2025-12-24', '2025-12-28'])
    expect(range('双十一买了啥')).toEqual(['2025-11-11', '2025-11-13'])
    expect(range('元旦怎么过的')).toEqual(['2025-12-31', '2026-1-3'])
    expect(namedTime('去年国庆', NOW)?.words).toEqual(['去年国庆'])
  })

  it('reads no holiday into a month, an hour, a number or a street', () => {
    for (const text of ['十一月的账单', '十一点睡的', '十五一起吃饭', '五一路上那家店', '二十五一共多少'])
      expect({ text, range: range(text) }).toEqual({ text, range: undefined })
  })

  it('takes the narrowest reading (上周三 before 上周, 去年冬天 before 去年)', () => {
    expect(namedTime('去年冬天', NOW)?.words).toEqual(['去年冬天'])
    expect(namedTime('上周三', NOW)?.fromMs).toBe(day(2026, 6, 10))
  })
})

describe('recall over the days a message names', () => {
  const at = (d: number, h = 20): string => new Date(2026, 5, d, h).toISOString()
  const store = (options: RecallOptionsInput = {}): RecallIndex => {
    const index = new RecallIndex(options)
    index.add({ id: 'kite', text: '带朵朵和土豆去锦城湖公园放风筝，风筝挂到树上取不下来，朵朵哭了一路。', at: at(14), source: 'entry' })
    index.add({ id: 'zoo', text: '五一带朵朵去了大熊猫基地，人山人海。', at: new Date(2026, 4, 2, 20).toISOString(), source: 'entry' })
    index.add({ id: 'vet', text: '土豆这几天拉肚子，带去医院检查，说是零食吃太多了。', at: at(9), source: 'entry' })
    index.add({ id: 'shot', text: '带土豆去宠物医院打了狂犬疫苗，总共180块。', at: new Date(2025, 3, 26, 20).toISOString(), source: 'entry' })
    index.add({ id: 'school', text: '女儿朵朵今天第一天上幼儿园，在门口哭了。', at: new Date(2025, 8, 1, 20).toISOString(), source: 'entry' })
    index.add({ id: 'badminton', text: '周六跟老邓去打羽毛球，两个钟头每人四十块。', at: new Date(2025, 4, 10, 20).toISOString(), source: 'entry' })
    return index
  }

  it("brings yesterday's memory first among those that share the question's words", () => {
    const ids = (options: RecallOptionsInput): string[] =>
      store(options)
        .search('昨天朵朵怎么了？', { now: NOW, limit: 3 })
        .map((h) => h.id)
    expect(ids({})[0]).toBe('kite')
    expect(ids({ namedTimeWeight: 0 })[0]).not.toBe('kite')
  })

  it('answers a question about a day that names nothing else, where words alone fall silent', () => {
    expect(store().search('昨天发生了什么', { now: NOW, limit: 1 })[0]?.id).toBe('kite')
    expect(store({ namedTimeWeight: 0 }).explain('昨天发生了什么', { now: NOW }).silence?.reason).toBe('low-coverage')
  })

  it("ranks last week's memory of the dog above an older one", () => {
    expect(store().search('土豆上周去医院是怎么回事？', { now: NOW, limit: 2 })[0]?.id).toBe('vet')
    expect(
      store({ namedTimeWeight: 0 })
        .search('土豆上周去医院是怎么回事？', { now: NOW, limit: 2 })
        .map((h) => h.id),
    ).toEqual(['vet', 'shot'])
  })

  it('answers a day no memory shares a word with (今天发生了什么), in either language', () => {
    const index = new RecallIndex()
    index.add({ id: 'kite', text: '下午带朵朵去公园放风筝。', at: new Date(2026, 5, 15, 10).toISOString(), source: 'entry' })
    index.add({ id: 'tom', text: 'Tom asked me to lead the Kafka migration.', at: new Date(2026, 5, 15, 9).toISOString(), source: 'entry' })
    index.add({ id: 'old', text: '体检报告出来了。', at: new Date(2025, 5, 15, 9).toISOString(), source: 'entry' })
    for (const q of ['今天发生了什么', 'what happened today?'])
      expect(
        index
          .search(q, { now: NOW })
          .map((h) => h.id)
          .sort(),
      ).toEqual(['kite', 'tom'])
    expect(index.explain('发生了什么', { now: NOW }).silence?.reason).toBe('no-match')
    expect(index.explain('上周发生了什么', { now: NOW }).hits).toEqual([])
  })

  it('answers a holiday by the memories written then, sharing no word with it', () => {
    const index = new RecallIndex()
    index.add({ id: 'dali', text: 'Trip to Dali with Chen Mo, cycled around the lake.', at: new Date(2024, 9, 3, 21).toISOString(), source: 'entry' })
    index.add({ id: 'visa', text: 'Visa appointment done, fingerprints taken.', at: new Date(2024, 8, 12, 9).toISOString(), source: 'entry' })
    index.add({ id: 'cat', text: '土豆吐了两次，医生说是毛球。', at: new Date(2024, 10, 2, 9).toISOString(), source: 'entry' })
    expect(index.search('where did we go for golden week in 2024?', { now: NOW, limit: 1 })[0]?.id).toBe('dali')
    expect(index.search('2024年国庆我们去哪玩了', { now: NOW, limit: 1 })[0]?.id).toBe('dali')
  })

  it('asked on another day, the same words find another memory first', () => {
    const later = new Date(2026, 5, 10, 12).getTime() // the day after the vet
    expect(store().search('昨天土豆怎么了？', { now: later, limit: 1 })[0]?.id).toBe('vet')
  })
})
