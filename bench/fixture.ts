/**
 * The benches' large store, built like the recall bench's scale store (bench/recall.ts):
 * half Chinese sentences made from a word list, half English dialogue turns of LoCoMo
 * (read from ../shared/bench/locomo10 beside the repository at run time, never copied),
 * spread over day files like years of daily use (100,000 entries ≈ 1,096 day files, as
 * the issue measured), written straight to the files (not measured). Queries: Chinese
 * questions of our own and LoCoMo's own questions. Deterministic: a seeded generator.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT_NAME } from '../memory/paths.ts'
import { LOCOMO_DIR } from './locomo.ts'
import { chineseSentence, mulberry32, writeDayEntries } from './synthetic.ts'

const ZH_WORDS = (
  '乌龙茶 咖啡 早餐 晚饭 火锅 饺子 面条 蛋糕 草莓 西瓜 工作 加班 会议 项目 面试 辞职 同事 老板 考试 论文 ' +
  '小说 第三章 电影 音乐 吉他 钢琴 画画 摄影 跑步 游泳 爬山 骑车 瑜伽 散步 旅行 西湖 海边 北京 上海 杭州 ' +
  '妈妈 爸爸 奶奶 外婆 弟弟 妹妹 朋友 邻居 橘猫 小狗 生日 礼物 中秋 新年 春节 下雨 下雪 春天 秋天 月亮 ' +
  '失眠 做梦 感冒 医院 体检 开心 难过 紧张 放松 想念 搬家 阳台 种花 厨房 书店 图书馆 地铁 公交 日记 照片'
).split(' ')
const ZH_GLUE = ['，', '。', '和', '去', '想', '觉得', '一起', '有点', '终于', '还是', '又', '今天']
export const ZH_QUERIES = [
  '我想喝点茶',
  '上次去西湖是什么时候',
  '妈妈的生日礼物',
  '最近总是失眠做梦',
  '周末一起去爬山吗',
  '还记得那只橘猫吗',
  '小说写到第几章了',
  '搬家以后的阳台',
]

interface Locomo {
  turns: string[]
  questions: string[]
}

/** LoCoMo's turns ("speaker: text") and questions, read at run time; empty when the data is not there. */
function locomo(): Locomo {
  const out: Locomo = { turns: [], questions: [] }
  let files: string[] = []
  try {
    files = readdirSync(LOCOMO_DIR).filter((f) => f.endsWith('.json'))
  } catch {
    return out
  }
  for (const f of files.sort()) {
    const raw = JSON.parse(readFileSync(join(LOCOMO_DIR, f), 'utf8')) as Record<string, unknown>
    for (const key of Object.keys(raw)) {
      if (!/^session_\d+$/.test(key) || !Array.isArray(raw[key])) continue
      for (const t of raw[key] as { speaker: string; text: string }[]) out.turns.push(`${t.speaker}: ${t.text}`)
    }
    for (const q of (raw.qa as { question?: unknown }[] | undefined) ?? []) if (typeof q.question === 'string') out.questions.push(q.question)
  }
  return out
}

const data = locomo()

/** Queries for the benches: one Chinese for every three LoCoMo questions (Chinese only when the data is missing). */
export const BENCH_QUERIES: readonly string[] = Array.from({ length: 40 }, (_, i) =>
  i % 4 === 0 || data.questions.length === 0 ? ZH_QUERIES[(i >> 2) % ZH_QUERIES.length]! : data.questions[(i * 7) % data.questions.length]!,
)

/**
 * Writes `count` entries into `<home>/cyrene-philia093-0/`; returns the number of day files. `endingToday`: the last
 * day is today (local time), so the person's writes go to a day file that already holds entries.
 */
export async function buildBenchStore(home: string, count: number, perDay = Math.max(1, Math.ceil(count / 1096)), endingToday = false): Promise<number> {
  const random = mulberry32(42)
  const firstHourToday = new Date()
  firstHourToday.setHours(0, 30, 0, 0)
  const days = Math.ceil(count / perDay)
  return await writeDayEntries(join(home, ROOT_NAME), {
    count,
    perDay,
    start: endingToday ? firstHourToday.getTime() - (days - 1) * 86_400_000 : new Date('2023-01-01T12:00:00Z').getTime(),
    textOf: (n) =>
      (n % 2 === 1 && data.turns.length > 0 ? data.turns[Math.floor(random() * data.turns.length)]! : chineseSentence(random, ZH_WORDS, ZH_GLUE)).slice(0, 400),
  })
}
