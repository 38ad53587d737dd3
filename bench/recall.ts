// Recall benchmark (not a test). Run: node bench/recall.ts [--data DIR] [--scale N] [--quick]
//
// Part 1 — LoCoMo retrieval: one index per conversation, one document per dialogue
// turn ("<speaker>: <text> [image: <caption>]", dated by its session), every question
// of categories 1–4 with evidence; recall@k of the evidence turns, and recall within
// the 1000-char pre-step budget. Our index runs beside two plain peers measured in
// the same process on the same data, so the comparison survives a noisy machine:
//   * plain-bm25: textbook BM25 (k1 1.2, b 0.75), lower-cased \p{L}\p{N} words, no
//     stemming, stop words, bigrams, recency or links (roughly the minisearch baseline
//     described in ../shared/bench/README.md beside this repository);
//   * overlap: the number of distinct query words a turn contains (no idf at all).
// Part 2 — scale: N synthetic memories (half Chinese, half English LoCoMo turns),
// build time, query latency, heap and RSS, JSON size, load time, incremental updates;
// plain-bm25 at the same scale as the speed peer.
//
// The data is read from ../shared/bench/locomo10 beside the repository (or --data); it is never copied.

import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { RecallIndex, selectWithinBudget, type RecallDoc } from '../memory/recall/index.ts'

// ---------------------------------------------------------------- arguments

interface Args {
  dataDir: string
  scale: number
  scaleQueries: number
  /** Internal: measure one system's memory in this (fresh) process and print it as JSON. */
  childFootprint?: ScaleSystem
  cacheFile?: string
}

/** The shared folder sits beside the repository (../shared), wherever the repository was cloned. */
const DEFAULT_DATA_DIR = fileURLToPath(new URL('../../shared/bench/locomo10', import.meta.url))

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { dataDir: DEFAULT_DATA_DIR, scale: 100_000, scaleQueries: 300 }
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]
    if (flag === '--data') args.dataDir = argv[++i]!
    else if (flag === '--scale') args.scale = Number(argv[++i])
    else if (flag === '--quick') args.scale = 20_000
    else if (flag === '--child-footprint') {
      args.childFootprint = argv[++i] as ScaleSystem
      args.scale = Number(argv[++i])
      args.cacheFile = argv[++i]
    } else throw new Error(`unknown argument ${flag}; use --data DIR, --scale N, --quick`)
  }
  return args
}

// ---------------------------------------------------------------- LoCoMo

/** One indexed document: a dialogue turn, or a session observation (a one-line fact about a speaker). */
interface Unit {
  id: string
  text: string
  at: string
  /** The dialogue ids this document stands for (evidence found = the ids of the retrieved units). */
  covers: string[]
}

interface Question {
  question: string
  category: number
  evidence: string[]
}

interface Conversation {
  name: string
  turns: Unit[]
  observations: Unit[]
  questions: Question[]
  now: Date
}

interface RawTurn {
  speaker: string
  dia_id: string
  text: string
  blip_caption?: string
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december']

// "1:56 pm on 8 May, 2023"
function parseSessionDate(text: string): Date {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([a-z]+),?\s+(\d{4})/i.exec(text)
  if (m === null) throw new Error(`unparsed session date: ${text}`)
  const hour = (Number(m[1]) % 12) + (m[3]!.toLowerCase() === 'pm' ? 12 : 0)
  const month = MONTHS.indexOf(m[5]!.toLowerCase())
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2])))
}

function loadConversation(path: string, name: string): Conversation {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
  const turns: Unit[] = []
  const observations: Unit[] = []
  let last = 0
  for (const key of Object.keys(raw)) {
    const session = /^session_(\d+)$/.exec(key)
    if (session === null || !Array.isArray(raw[key])) continue
    const start = parseSessionDate(String(raw[`${key}_date_time`])).getTime()
    ;(raw[key] as RawTurn[]).forEach((t, i) => {
      const at = start + i * 30_000 // turns of a session half a minute apart
      last = Math.max(last, at)
      const caption = t.blip_caption ? ` [image: ${t.blip_caption}]` : ''
      turns.push({ id: t.dia_id, text: `${t.speaker}: ${t.text}${caption}`, at: new Date(at).toISOString(), covers: [t.dia_id] })
    })
    const observed = raw[`${key}_observation`] as Record<string, [string, string | string[]][]> | undefined
    for (const [speaker, facts] of Object.entries(observed ?? {})) {
      for (const [text, ids] of facts) {
        const covers = (Array.isArray(ids) ? ids : [ids]).flatMap((id) => id.split(/[;,\s]+/)).filter((id) => id !== '')
        observations.push({ id: `${key}#${observations.length}`, text: `${speaker}: ${text}`, at: new Date(start).toISOString(), covers })
      }
    }
  }
  const known = new Set(turns.map((t) => t.id))
  const questions: Question[] = []
  for (const q of raw.qa as { question: string; category: number; evidence?: string[] }[]) {
    if (q.category < 1 || q.category > 4) continue
    // A few evidence fields hold several ids in one string ("D8:6; D9:17").
    const evidence = [...new Set((q.evidence ?? []).flatMap((e) => e.split(/[;,\s]+/)).filter((e) => known.has(e)))]
    if (evidence.length > 0) questions.push({ question: q.question, category: q.category, evidence })
  }
  return { name, turns, observations, questions, now: new Date(last + 86_400_000) }
}

// ---------------------------------------------------------------- peers

interface Retriever {
  add(id: string, text: string, at: string): void
  search(query: string, limit: number, now: Date): string[]
}

function plainWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
}

class PlainBm25 implements Retriever {
  private readonly postings = new Map<string, { doc: number; tf: number }[]>()
  private readonly ids: string[] = []
  private readonly lengths: number[] = []
  private total = 0

  add(id: string, text: string): void {
    const doc = this.ids.length
    const words = plainWords(text)
    const counts = new Map<string, number>()
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1)
    for (const [w, tf] of counts) {
      let list = this.postings.get(w)
      if (list === undefined) this.postings.set(w, (list = []))
      list.push({ doc, tf })
    }
    this.ids.push(id)
    this.lengths.push(words.length)
    this.total += words.length
  }

  search(query: string, limit: number): string[] {
    const n = this.ids.length
    const avg = this.total / n
    const scores = new Map<number, number>()
    for (const w of new Set(plainWords(query))) {
      const list = this.postings.get(w)
      if (list === undefined) continue
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5))
      for (const { doc, tf } of list) {
        const s = (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * this.lengths[doc]!) / avg))
        scores.set(doc, (scores.get(doc) ?? 0) + s)
      }
    }
    return rankTop(scores, this.ids, limit)
  }
}

class Overlap implements Retriever {
  private readonly docs: { id: string; words: Set<string> }[] = []

  add(id: string, text: string): void {
    this.docs.push({ id, words: new Set(plainWords(text)) })
  }

  search(query: string, limit: number): string[] {
    const words = [...new Set(plainWords(query))]
    const scores = new Map<number, number>()
    this.docs.forEach((d, i) => {
      let hits = 0
      for (const w of words) if (d.words.has(w)) hits++
      if (hits > 0) scores.set(i, hits)
    })
    return rankTop(
      scores,
      this.docs.map((d) => d.id),
      limit,
    )
  }
}

function rankTop(scores: Map<number, number>, ids: readonly string[], limit: number): string[] {
  return [...scores]
    .sort((a, b) => b[1] - a[1] || (ids[a[0]]! < ids[b[0]]! ? -1 : 1))
    .slice(0, limit)
    .map(([doc]) => ids[doc]!)
}

class Ours implements Retriever {
  readonly index: RecallIndex

  constructor(index: RecallIndex = new RecallIndex()) {
    this.index = index
  }

  add(id: string, text: string, at: string): void {
    this.index.add({ id, text, at, source: 'entry' })
  }

  search(query: string, limit: number, now: Date): string[] {
    return this.index.search(query, { limit, now }).map((h) => h.id)
  }
}

const SYSTEMS: readonly { name: string; make: () => Retriever }[] = [
  { name: 'recall (ours)', make: () => new Ours() },
  // Ablation: the same index without the recency bonus (LoCoMo asks about any time).
  { name: 'ours, recency off', make: () => new Ours(new RecallIndex({ recencyWeight: 0 })) },
  { name: 'plain-bm25', make: () => new PlainBm25() },
  { name: 'overlap', make: () => new Overlap() },
]

// ---------------------------------------------------------------- measuring

const KS = [5, 10, 20] as const
const BUDGET_CHARS = 1000
const PER_ENTRY_MAX = 300

interface Tally {
  questions: number
  recall: Record<number, number>
  budgetRecall: number
}

interface SystemResult {
  buildMs: number
  latenciesMs: number[]
  overall: Tally
  byCategory: Map<number, Tally>
}

function emptyTally(): Tally {
  return { questions: 0, recall: Object.fromEntries(KS.map((k) => [k, 0])), budgetRecall: 0 }
}

function runLocomo(conversations: readonly Conversation[], unitsOf: (c: Conversation) => Unit[]): Map<string, SystemResult> {
  const results = new Map<string, SystemResult>()
  for (const system of SYSTEMS) {
    results.set(system.name, { buildMs: 0, latenciesMs: [], overall: emptyTally(), byCategory: new Map() })
  }
  for (const conversation of conversations) {
    const units = unitsOf(conversation)
    const texts = new Map(units.map((u) => [u.id, { text: u.text }]))
    const covers = new Map(units.map((u) => [u.id, u.covers]))
    const dialogueIds = (ids: readonly string[]): string[] => ids.flatMap((id) => covers.get(id) ?? [])
    for (const system of SYSTEMS) {
      const result = results.get(system.name)!
      const retriever = system.make()
      const t0 = performance.now()
      for (const unit of units) retriever.add(unit.id, unit.text, unit.at)
      result.buildMs += performance.now() - t0
      for (const q of conversation.questions) {
        const q0 = performance.now()
        const ranked = retriever.search(q.question, Math.max(...KS), conversation.now)
        result.latenciesMs.push(performance.now() - q0)
        const picked = selectWithinBudget(
          ranked.map((id, i) => ({ id, score: -i })),
          texts,
          BUDGET_CHARS,
          PER_ENTRY_MAX,
        ).picked
        const tallies = [result.overall, categoryTally(result.byCategory, q.category)]
        for (const tally of tallies) {
          tally.questions++
          for (const k of KS) tally.recall[k]! += fractionFound(q.evidence, dialogueIds(ranked.slice(0, k)))
          tally.budgetRecall += fractionFound(q.evidence, dialogueIds(picked.map((p) => p.id)))
        }
      }
    }
  }
  return results
}

function categoryTally(byCategory: Map<number, Tally>, category: number): Tally {
  let tally = byCategory.get(category)
  if (tally === undefined) byCategory.set(category, (tally = emptyTally()))
  return tally
}

function fractionFound(evidence: readonly string[], retrieved: readonly string[]): number {
  const got = new Set(retrieved)
  return evidence.filter((e) => got.has(e)).length / evidence.length
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN
}

// ---------------------------------------------------------------- scale

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

function mulberry32(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function chineseSentence(random: () => number): string {
  const words = 6 + Math.floor(random() * 14)
  let text = ''
  for (let i = 0; i < words; i++) {
    text += CHINESE_WORDS[Math.floor(random() * CHINESE_WORDS.length)]!
    if (random() < 0.5) text += CHINESE_GLUE[Math.floor(random() * CHINESE_GLUE.length)]!
  }
  return text + '。'
}

function syntheticDocs(count: number, english: readonly string[]): RecallDoc[] {
  const random = mulberry32(42)
  const start = Date.UTC(1996, 0, 1)
  const step = (30 * 365.25 * 86_400_000) / count // thirty years of daily use
  const docs: RecallDoc[] = []
  for (let i = 0; i < count; i++) {
    const text = i % 2 === 0 ? chineseSentence(random) : english[Math.floor(random() * english.length)]!
    const links = random() < 0.2 && i > 0 ? [`m${String(Math.floor(random() * i)).padStart(6, '0')}|因果`] : undefined
    const doc: RecallDoc = { id: `m${String(i).padStart(6, '0')}`, text, at: new Date(start + i * step).toISOString(), source: 'entry' }
    if (links !== undefined) doc.links = links
    docs.push(doc)
  }
  return docs
}

function exposeGc(): () => void {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  return () => {
    gc()
    gc()
  }
}

interface MemoryFootprint {
  heapMb: number
  rssBeforeMb: number
  rssAfterMb: number
}

interface ScaleResult {
  docs: number
  ours: {
    buildMs: number
    p50: number
    p95: number
    memory: MemoryFootprint
    loadedMemory: MemoryFootprint
    jsonMb: number
    saveMs: number
    loadMs: number
    updateMs: number
  }
  peer: { buildMs: number; p50: number; p95: number; memory: MemoryFootprint }
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
type ScaleSystem = 'ours' | 'peer' | 'loaded'

// Memory is measured in a fresh process per system, so that none sees another's
// garbage. "Retained" = V8 heap + array buffers (our per-document term arrays live there).
function measureFootprintInChild(system: ScaleSystem, count: number, dataDir: string, cacheFile: string): MemoryFootprint {
  const script = fileURLToPath(import.meta.url)
  const args = [script, '--data', dataDir, '--child-footprint', system, String(count), cacheFile]
  const out = execFileSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 20 })
  return JSON.parse(out.trim().split('\n').pop()!) as MemoryFootprint
}

function childFootprint(system: ScaleSystem, count: number, english: readonly string[], cacheFile: string): MemoryFootprint {
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
  const built = system === 'ours' ? new Ours() : new PlainBm25()
  for (const doc of docs) built.add(doc.id, doc.text, doc.at)
  return built
}

function runScale(count: number, english: readonly string[], queries: readonly string[], dataDir: string): ScaleResult {
  const docs = syntheticDocs(count, english)
  const now = new Date(Date.UTC(2026, 0, 1))

  let t0 = performance.now()
  let index = new RecallIndex()
  for (const doc of docs) index.add(doc)
  const buildMs = performance.now() - t0
  const latency = timeQueries((q) => index.search(q, { limit: 10, now }), queries)

  t0 = performance.now()
  const json = JSON.stringify(index.toJSON())
  const saveMs = performance.now() - t0
  t0 = performance.now()
  index = RecallIndex.fromJSON(JSON.parse(json))
  const loadMs = performance.now() - t0
  const jsonMb = mb(Buffer.byteLength(json))
  const cacheDir = mkdtempSync(join(tmpdir(), 'recall-bench-'))
  const cacheFile = join(cacheDir, 'index.json')
  writeFileSync(cacheFile, json)

  // Incremental upkeep: rewrite 1,000 existing memories one at a time.
  t0 = performance.now()
  for (let i = 0; i < 1000; i++) {
    const doc = docs[(i * 97) % docs.length]!
    index.update({ ...doc, text: `${doc.text} 补记 ${i}` })
  }
  const updateMs = (performance.now() - t0) / 1000
  index = new RecallIndex()

  t0 = performance.now()
  const peer = new PlainBm25()
  for (const doc of docs) peer.add(doc.id, doc.text)
  const peerBuildMs = performance.now() - t0
  const peerLatency = timeQueries((q) => peer.search(q, 10), queries)
  try {
    return {
      docs: count,
      ours: {
        buildMs,
        ...latency,
        memory: measureFootprintInChild('ours', count, dataDir, cacheFile),
        loadedMemory: measureFootprintInChild('loaded', count, dataDir, cacheFile),
        jsonMb,
        saveMs,
        loadMs,
        updateMs,
      },
      peer: { buildMs: peerBuildMs, ...peerLatency, memory: measureFootprintInChild('peer', count, dataDir, cacheFile) },
    }
  } finally {
    rmSync(cacheDir, { recursive: true, force: true })
  }
}

// ---------------------------------------------------------------- report

function fmt(n: number, digits = 3): string {
  return Number.isFinite(n) ? n.toFixed(digits) : '—'
}

function ratio(a: number, b: number): string {
  return b > 0 ? `${(a / b).toFixed(2)}×` : '—'
}

function printLocomo(results: Map<string, SystemResult>, conversations: number, what: string, withSpeed: boolean): void {
  const ours = results.get(SYSTEMS[0]!.name)!
  const categories = [...ours.byCategory.keys()].sort()
  const names = ['multi-hop', 'temporal', 'open-domain', 'single-hop']
  const rows: string[][] = []
  const header = ['system', 'scope', 'n', ...KS.map((k) => `R@${k}`), `R@${BUDGET_CHARS}ch`, 'R@5 vs bm25', 'R@10 vs bm25']
  const peer = results.get('plain-bm25')!
  for (const [name, result] of results) {
    const scopes: [string, Tally, Tally][] = [['all', result.overall, peer.overall]]
    for (const c of categories) scopes.push([`${c} ${names[c - 1]}`, result.byCategory.get(c)!, peer.byCategory.get(c)!])
    for (const [scope, t, p] of scopes) {
      const r = (k: number, tally: Tally): number => tally.recall[k]! / tally.questions
      rows.push([
        name,
        scope,
        String(t.questions),
        ...KS.map((k) => fmt(r(k, t))),
        fmt(t.budgetRecall / t.questions),
        ratio(r(5, t), r(5, p)),
        ratio(r(10, t), r(10, p)),
      ])
    }
  }
  console.log(
    `\nLoCoMo: ${conversations} conversations, ${what}, categories 1–4; R@${BUDGET_CHARS}ch = evidence inside a ` +
      `${BUDGET_CHARS}-char budget (≤ ${PER_ENTRY_MAX} per entry). Ratios: this system / plain-bm25.`,
  )
  printTable(header, rows)
  if (!withSpeed) return
  console.log(`\nLoCoMo speed (build = all ${conversations} indexes; latency per question). Ratios: ours / this system.`)
  const speedRows = [...results].map(([name, result]) => [
    name,
    fmt(result.buildMs, 0),
    fmt(percentile(result.latenciesMs, 50)),
    fmt(percentile(result.latenciesMs, 95)),
    ratio(ours.buildMs, result.buildMs),
    ratio(percentile(ours.latenciesMs, 50), percentile(result.latenciesMs, 50)),
    ratio(percentile(ours.latenciesMs, 95), percentile(result.latenciesMs, 95)),
  ])
  printTable(['system', 'build (ms)', 'p50 (ms)', 'p95 (ms)', 'build ratio', 'p50 ratio', 'p95 ratio'], speedRows)
}

function printScale(s: ScaleResult): void {
  console.log(
    `\nScale: ${s.docs.toLocaleString('en')} synthetic memories (half Chinese, half English), 30 years; queries = LoCoMo questions + Chinese phrases.`,
  )
  printTable(
    ['measure', 'recall (ours)', 'plain-bm25', 'ours / bm25'],
    [
      ['build (ms)', fmt(s.ours.buildMs, 0), fmt(s.peer.buildMs, 0), ratio(s.ours.buildMs, s.peer.buildMs)],
      ['query p50 (ms)', fmt(s.ours.p50), fmt(s.peer.p50), ratio(s.ours.p50, s.peer.p50)],
      ['query p95 (ms)', fmt(s.ours.p95), fmt(s.peer.p95), ratio(s.ours.p95, s.peer.p95)],
      ['retained: heap + buffers (MB)', fmt(s.ours.memory.heapMb, 1), fmt(s.peer.memory.heapMb, 1), ratio(s.ours.memory.heapMb, s.peer.memory.heapMb)],
      ['RSS: docs loaded → index built (MB)', rssSpan(s.ours.memory), rssSpan(s.peer.memory), ratio(rssGrowth(s.ours.memory), rssGrowth(s.peer.memory))],
      ['retained when loaded from JSON (MB)', fmt(s.ours.loadedMemory.heapMb, 1), '', ''],
      ['RSS when loaded from JSON (MB)', rssSpan(s.ours.loadedMemory), '', ''],
      ['JSON size (MB)', fmt(s.ours.jsonMb, 1), '', ''],
      ['toJSON+stringify (ms)', fmt(s.ours.saveMs, 0), '', ''],
      ['parse+fromJSON (ms)', fmt(s.ours.loadMs, 0), `(vs our build: ${ratio(s.ours.loadMs, s.ours.buildMs)})`, ''],
      ['update one doc (ms, mean of 1000)', fmt(s.ours.updateMs), '', ''],
    ],
  )
}

function rssSpan(m: MemoryFootprint): string {
  return `${fmt(m.rssBeforeMb, 0)} → ${fmt(m.rssAfterMb, 0)}`
}

function rssGrowth(m: MemoryFootprint): number {
  return m.rssAfterMb - m.rssBeforeMb
}

function printTable(header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: readonly string[]): string => '| ' + cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |'
  console.log(line(header))
  console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|')
  for (const row of rows) console.log(line(row))
}

// ---------------------------------------------------------------- main

const CHINESE_QUERIES = [
  '我想喝茶',
  '上次去西湖是什么时候',
  '妈妈的生日礼物',
  '最近总是失眠做梦',
  '周末一起去爬山吗',
  '还记得那只猫咪吗',
  '面试紧张',
  '写代码加班',
]

function main(): void {
  const args = parseArgs(process.argv.slice(2))
  const started = performance.now()
  const files = readdirSync(args.dataDir)
    .filter((f) => f.endsWith('.json'))
    .sort()
  const conversations = files.map((f) => loadConversation(join(args.dataDir, f), f))
  if (args.childFootprint !== undefined) {
    const english = conversations.flatMap((c) => c.turns.map((t) => t.text))
    console.log(JSON.stringify(childFootprint(args.childFootprint, args.scale, english, args.cacheFile ?? '')))
    return
  }
  console.log(`node ${process.version}, ICU ${process.versions.icu}, ${process.platform}/${process.arch}; data ${args.dataDir}`)
  printLocomo(
    runLocomo(conversations, (c) => c.turns),
    conversations.length,
    'one document per turn',
    true,
  )
  printLocomo(
    runLocomo(conversations, (c) => c.observations),
    conversations.length,
    'one document per session observation (evidence found = the turns an observation cites)',
    false,
  )
  if (args.scale > 0) {
    const english = conversations.flatMap((c) => c.turns.map((t) => t.text))
    const questions = conversations.flatMap((c) => c.questions.map((q) => q.question))
    const queries: string[] = []
    for (let i = 0; i < args.scaleQueries; i++) {
      queries.push(i % 4 === 0 ? CHINESE_QUERIES[(i / 4) % CHINESE_QUERIES.length]! : questions[(i * 7) % questions.length]!)
    }
    printScale(runScale(args.scale, english, queries, args.dataDir))
  }
  console.log(`\ntotal ${fmt((performance.now() - started) / 1000, 1)} s`)
}

main()
