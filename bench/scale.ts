// The scale part of the recall bench: N synthetic memories (half Chinese diary
// sentences, half English LoCoMo turns, 30 years, 20 % linked), built from a
// fixed seed so every run sees the same store. Query latency against minisearch
// (default options) and the hand-written BM25 in the same process; the JSON
// cache round trip; memory in a fresh child process per system (optional).

import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { RecallIndex, type RecallDoc } from '../recall/core/index.ts'
import { MiniSearchPeer, Ours, PlainBm25, type Retriever } from './peers.ts'
import { chineseSentence, mulberry32 } from './synthetic.ts'

// A small Chinese vocabulary for synthetic diary-like memories. Real entries have
// more variety; this is for speed and memory, not for relevance.
const CHINESE_WORDS = (
  '今天 昨天 明天 早上 晚上 周末 下雨 天气 很好 喜欢 讨厌 喝茶 咖啡 乌龙茶 散步 公园 猫咪 小狗 妈妈 爸爸 朋友 同事 老板 ' +
  '工作 加班 项目 会议 学习 考试 读书 小说 电影 音乐 钢琴 吉他 画画 跑步 游泳 爬山 旅行 北京 上海 杭州 西湖 海边 ' +
  '生日 礼物 蛋糕 晚饭 火锅 面条 饺子 水果 苹果 草莓 医院 感冒 发烧 睡觉 失眠 做梦 开心 难过 生气 担心 紧张 放松 ' +
  '计划 目标 梦想 回忆 小时候 学校 老师 毕业 搬家 房子 厨房 阳台 花园 种花 月亮 星星 下雪 春天 夏天 秋天 冬天 ' +
  '聊天 电话 消息 约定 承诺 道歉 感谢 拥抱 陪伴 孤独 安静 热闹 新年 中秋 端午 红包 奶奶 爷爷 弟弟 妹妹 ' +
  '决定 辞职 面试 写代码 修电脑 手机 照片 日记 笔记 书店 图书馆 地铁 公交 自行车 开车 迟到 早起'
).split(' ')
const CHINESE_GLUE = ['，', '。', '和', '去', '想', '觉得', '一起', '有点', '特别', '又', '终于', '还是']

/** Chinese queries mixed into the scale run (a quarter of them), beside LoCoMo questions. */
export const CHINESE_QUERIES = [
  '我想喝茶',
  '上次去西湖是什么时候',
  '妈妈的生日礼物',
  '最近总是失眠做梦',
  '周末一起去爬山吗',
  '还记得那只猫咪吗',
  '面试紧张',
  '写代码加班',
]

export function syntheticDocs(count: number, english: readonly string[]): RecallDoc[] {
  const random = mulberry32(42)
  const start = Date.UTC(1996, 0, 1)
  const step = (30 * 365.25 * 86_400_000) / count // thirty years of daily use
  const docs: RecallDoc[] = []
  for (let i = 0; i < count; i++) {
    const text = i % 2 === 0 ? chineseSentence(random, CHINESE_WORDS, CHINESE_GLUE) : english[Math.floor(random() * english.length)]!
    const links = random() < 0.2 && i > 0 ? [`m${String(Math.floor(random() * i)).padStart(6, '0')}|因果`] : undefined
    const doc: RecallDoc = { id: `m${String(i).padStart(6, '0')}`, text, at: new Date(start + i * step).toISOString(), source: 'entry' }
    if (links !== undefined) doc.links = links
    docs.push(doc)
  }
  return docs
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN
}

function exposeGc(): () => void {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  return () => {
    gc()
    gc()
  }
}

export interface MemoryFootprint {
  heapMb: number
  rssBeforeMb: number
  rssAfterMb: number
}

interface Timed {
  buildMs: number
  p50: number
  p95: number
}

export interface ScaleResult {
  docs: number
  queries: number
  ours: Timed & { jsonMb: number; saveMs: number; loadMs: number; updateMs: number; memory?: MemoryFootprint; loadedMemory?: MemoryFootprint }
  minisearch: Timed & { memory?: MemoryFootprint }
  plainBm25: Timed
}

const mb = (bytes: number): number => bytes / 1_048_576

function timeQueries(run: (q: string) => unknown, queries: readonly string[]): { p50: number; p95: number } {
  for (const q of queries.slice(0, 20)) run(q) // warm-up
  const times = queries.map((q) => {
    const t0 = performance.now()
    run(q)
    return performance.now() - t0
  })
  return { p50: percentile(times, 50), p95: percentile(times, 95) }
}

/** 'loaded' = our index read back from its JSON cache (the store's usual start-up path). */
export type ScaleSystem = 'ours' | 'minisearch' | 'loaded'

// Memory is measured in a fresh process per system, so that none sees another's
// garbage. "Retained" = V8 heap + array buffers (our per-document term arrays live there).
function measureFootprintInChild(system: ScaleSystem, count: number, dataDir: string, cacheFile: string): MemoryFootprint {
  const script = fileURLToPath(new URL('./recall.ts', import.meta.url))
  const args = [script, '--data', dataDir, '--child-footprint', system, String(count), cacheFile]
  const out = execFileSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 20 })
  return JSON.parse(out.trim().split('\n').pop()!) as MemoryFootprint
}

export function childFootprint(system: ScaleSystem, count: number, english: readonly string[], cacheFile: string): MemoryFootprint {
  const gc = exposeGc()
  const docs = syntheticDocs(count, english)
  gc()
  const before = process.memoryUsage()
  // Built in a helper so that no temporary (the parsed JSON above all) stays on this frame.
  const built = buildForFootprint(system, docs, cacheFile)
  gc()
  const after = process.memoryUsage()
  // Also keeps `built` alive until after the measurement.
  if (built.search(docs[1]!.text, 1, new Date()).length === 0) throw new Error('the index lost its documents')
  const retained = after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers)
  return { heapMb: mb(retained), rssBeforeMb: mb(before.rss), rssAfterMb: mb(after.rss) }
}

function buildForFootprint(system: ScaleSystem, docs: readonly RecallDoc[], cacheFile: string): Retriever {
  if (system === 'loaded') {
    return new Ours(RecallIndex.fromJSON(JSON.parse(readFileSync(cacheFile, 'utf8'))))
  }
  const built = system === 'ours' ? new Ours() : new MiniSearchPeer()
  for (const doc of docs) built.add(doc.id, doc.text, doc.at)
  if (built instanceof MiniSearchPeer) built.flush()
  return built
}

export function runScale(count: number, english: readonly string[], queries: readonly string[], dataDir: string, footprint: boolean): ScaleResult {
  const docs = syntheticDocs(count, english)
  const now = new Date(Date.UTC(2026, 0, 1))

  let t0 = performance.now()
  let index = new RecallIndex()
  for (const doc of docs) index.add(doc)
  const buildMs = performance.now() - t0
  // Abstention is part of the query path the pre-step runs, so it is timed too.
  const latency = timeQueries((q) => index.search(q, { limit: 10, now }), queries)

  t0 = performance.now()
  const json = JSON.stringify(index.toJSON())
  const saveMs = performance.now() - t0
  t0 = performance.now()
  index = RecallIndex.fromJSON(JSON.parse(json))
  const loadMs = performance.now() - t0
  const jsonMb = mb(Buffer.byteLength(json))

  // Incremental upkeep: rewrite 1,000 existing memories one at a time.
  t0 = performance.now()
  for (let i = 0; i < 1000; i++) {
    const doc = docs[(i * 97) % docs.length]!
    index.update({ ...doc, text: `${doc.text} 补记 ${i}` })
  }
  const updateMs = (performance.now() - t0) / 1000
  index = new RecallIndex()

  t0 = performance.now()
  const mini = new MiniSearchPeer()
  for (const doc of docs) mini.add(doc.id, doc.text)
  mini.flush()
  const miniBuildMs = performance.now() - t0
  const miniLatency = timeQueries((q) => mini.search(q, 10), queries)

  t0 = performance.now()
  const plain = new PlainBm25()
  for (const doc of docs) plain.add(doc.id, doc.text)
  const plainBuildMs = performance.now() - t0
  const plainLatency = timeQueries((q) => plain.search(q, 10), queries)

  const result: ScaleResult = {
    docs: count,
    queries: queries.length,
    ours: { buildMs, ...latency, jsonMb, saveMs, loadMs, updateMs },
    minisearch: { buildMs: miniBuildMs, ...miniLatency },
    plainBm25: { buildMs: plainBuildMs, ...plainLatency },
  }
  if (!footprint) return result
  const cacheDir = mkdtempSync(join(tmpdir(), 'recall-bench-'))
  const cacheFile = join(cacheDir, 'index.json')
  writeFileSync(cacheFile, json)
  try {
    result.ours.memory = measureFootprintInChild('ours', count, dataDir, cacheFile)
    result.ours.loadedMemory = measureFootprintInChild('loaded', count, dataDir, cacheFile)
    result.minisearch.memory = measureFootprintInChild('minisearch', count, dataDir, cacheFile)
  } finally {
    rmSync(cacheDir, { recursive: true, force: true })
  }
  return result
}
