// Recall benchmark (not a test). Run: node bench/recall.ts [--data DIR] [--quick] [--json]
//
// Every figure is measured beside peers run in the same process on the same data,
// so ratios survive a noisy machine. The peer is the real `minisearch` package with
// default options (the shared README's baseline); a hand-written textbook BM25 runs
// as a second row. Parts:
//  1. LoCoMo, one memory per dialogue turn and one per session observation:
//     recall@5/10/20, recall inside the pre-step's 1,000 characters, characters of
//     the top 10; conversations 1–5 (options were tuned on these) and 6–10 (held out)
//     reported apart.
//  2. Abstention: each conversation's store asked the questions of the next
//     conversation in its half (people and events it never saw): the share that gets
//     an empty injection, beside what its own questions lose to the rule.
//  3. A small Chinese set written for this bench (bench/zh/).
//  4. Speed: LoCoMo query latency, and a synthetic store of 100,000 memories.
//
// LoCoMo is read from ../shared/bench/locomo10 beside the repository (or --data); never copied.

import { readFileSync } from 'node:fs'
import type { RecallOptionsInput } from '../recall/core/index.ts'
import { LOCOMO_DIR, loadLocomo, type Conversation, type Question, type Unit } from './locomo.ts'
import { CjkBigramBm25, MiniSearchPeer, Ours, PlainBm25 } from './peers.ts'
import { ownSystems, printOwn, runOwn, type OwnScore } from './own.ts'
import { BUDGET_CHARS, evaluate, finish, merge, KS, type Case, type RawScore, type Score, type System } from './recall-score.ts'
import { childFootprint, CHINESE_QUERIES, percentile, runScale, type ScaleResult, type ScaleSystem } from './scale.ts'

// ---------------------------------------------------------------- arguments

interface Args {
  dataDir: string
  scale: number
  json: boolean
  /** Memory footprints in child processes (slow; off with --quick). */
  footprint: boolean
  /** One row per ranking feature switched off (what each is worth). */
  ablations: boolean
  /** Only part 1 per turn, for sweeps. */
  turnsOnly: boolean
  /** Only the abstention rows (foreign questions and the store's own), for sweeps of the rule. */
  abstainOnly: boolean
  /** Options for our index (a sweep: --options '{"b":0.5}'). */
  options: RecallOptionsInput
  childFootprint?: ScaleSystem
  cacheFile?: string
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = {
    dataDir: LOCOMO_DIR,
    scale: 100_000,
    json: false,
    footprint: true,
    ablations: false,
    turnsOnly: false,
    abstainOnly: false,
    options: {},
  }
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]
    if (flag === '--data') args.dataDir = argv[++i]!
    else if (flag === '--scale') args.scale = Number(argv[++i])
    else if (flag === '--quick') args.footprint = false
    else if (flag === '--json') args.json = true
    else if (flag === '--ablations') args.ablations = true
    else if (flag === '--turns-only') args.turnsOnly = true
    else if (flag === '--abstain-only') args.abstainOnly = true
    else if (flag === '--options') args.options = JSON.parse(argv[++i]!) as RecallOptionsInput
    else if (flag === '--child-footprint') {
      args.childFootprint = argv[++i] as ScaleSystem
      args.scale = Number(argv[++i])
      args.cacheFile = argv[++i]
    } else throw new Error(`unknown argument ${flag}; use --data DIR, --scale N, --quick, --json, --ablations, --turns-only, --abstain-only, --options JSON`)
  }
  return args
}

// ---------------------------------------------------------------- systems

const MINISEARCH = 'minisearch (default)'
const OURS = 'recall (ours)'
const OURS_NO_ABSTAIN = 'ours, abstain off'

function systems(args: Args): System[] {
  const list: System[] = [
    { name: OURS, make: () => new Ours(args.options) },
    { name: OURS_NO_ABSTAIN, make: () => new Ours(args.options, false) },
    { name: MINISEARCH, make: () => new MiniSearchPeer() },
    { name: 'plain-bm25', make: () => new PlainBm25() },
    { name: 'cjk-bigram-bm25', make: () => new CjkBigramBm25() },
  ]
  if (args.ablations) {
    for (const [name, off] of ABLATIONS) list.push({ name, make: () => new Ours({ ...args.options, ...off }, false) })
  }
  return list
}

/** Each ranking feature switched off on its own (abstention off too, so only ranking differs). */
const ABLATIONS: readonly [string, RecallOptionsInput][] = [
  ['− neighbours', { neighbourShare: 0 }],
  ['neighbours span 1 (not 2)', { neighbourSpan: 1 }],
  ['+ feedback (PRF 0.3, the old default)', { feedbackWeight: 0.3 }],
  ['− translation (CC-CEDICT)', { translationWeight: 0 }],
  ['− time term (when)', { timeWeight: 0 }],
  ['− recency', { recencyWeight: 0 }],
  ['− CJK characters', { cjkCharWeight: 0 }],
  ['b 0.75 (textbook)', { b: 0.75 }],
]

// ---------------------------------------------------------------- measuring

// ---------------------------------------------------------------- the parts

type Half = 'tuned 1–5' | 'held-out 6–10' | 'all 1–10'
const HALVES: readonly [Half, (c: Conversation) => boolean][] = [
  ['tuned 1–5', (c) => c.number <= 5],
  ['held-out 6–10', (c) => c.number > 5],
  ['all 1–10', () => true],
]

type UnitKind = 'turn' | 'observation'

interface UnitResult {
  /** system → half → score */
  scores: Record<string, Record<string, Score>>
  /** per category, all conversations: system → category → score */
  categories: Record<string, Record<string, Score>>
  latency: Record<string, { p50: number; p95: number }>
}

function runUnits(all: readonly Conversation[], kind: UnitKind, list: readonly System[]): UnitResult {
  const result: UnitResult = { scores: {}, categories: {}, latency: {} }
  for (const system of list) {
    result.scores[system.name] = {}
    const perConversation = new Map<number, RawScore>()
    const categories = new Map<number, RawScore>()
    for (const c of all) {
      const units = kind === 'turn' ? c.turns : c.observations
      perConversation.set(c.number, evaluate(system, [{ units, now: c.now, questions: c.questions }], categories))
    }
    for (const [half, inHalf] of HALVES) {
      result.scores[system.name]![half] = finish(merge(all.filter(inHalf).map((c) => perConversation.get(c.number)!)))
    }
    result.categories[system.name] = Object.fromEntries([...categories].sort((a, b) => a[0] - b[0]).map(([cat, raw]) => [String(cat), finish(raw)]))
    const latencies = [...perConversation.values()].flatMap((r) => r.latenciesMs)
    result.latency[system.name] = { p50: percentile(latencies, 50), p95: percentile(latencies, 95) }
  }
  return result
}

interface AbstainRow {
  /** Share of foreign questions (another conversation's) that got an empty injection. */
  foreignEmpty: number
  foreignN: number
  ownRecall10WithRule: number
  ownRecall10WithoutRule: number
  /** (without − with) / without */
  ownLoss: number
  ownEmpty: number
}

/** Conversation i's store is asked the questions of the next conversation in the same half. */
function runAbstain(all: readonly Conversation[], options: RecallOptionsInput): Record<string, AbstainRow> {
  const out: Record<string, AbstainRow> = {}
  const withRule: System = { name: OURS, make: () => new Ours(options) }
  const withoutRule: System = { name: OURS_NO_ABSTAIN, make: () => new Ours(options, false) }
  for (const [half, inHalf] of HALVES.slice(0, 2)) {
    const convs = all.filter(inHalf)
    const foreign: Case[] = convs.map((c, i) => {
      const other = convs[(i + 1) % convs.length]!
      return { units: c.turns, now: c.now, questions: other.questions.map((q) => ({ ...q, evidence: [] })) }
    })
    const own: Case[] = convs.map((c) => ({ units: c.turns, now: c.now, questions: c.questions }))
    const f = finish(evaluate(withRule, foreign))
    const on = finish(evaluate(withRule, own))
    const off = finish(evaluate(withoutRule, own))
    out[half] = {
      foreignEmpty: f.empty,
      foreignN: f.n,
      ownRecall10WithRule: on.recall[10]!,
      ownRecall10WithoutRule: off.recall[10]!,
      ownLoss: off.recall[10]! > 0 ? (off.recall[10]! - on.recall[10]!) / off.recall[10]! : 0,
      ownEmpty: on.empty,
    }
  }
  return out
}

interface ChineseSet {
  memories: { id: string; at: string; text: string }[]
  questions: { question: string; evidence: string[] }[]
}

function loadChinese(): ChineseSet {
  const read = (name: string): unknown => JSON.parse(readFileSync(new URL(`./zh/${name}`, import.meta.url), 'utf8'))
  return { memories: read('memories.json') as ChineseSet['memories'], questions: read('questions.json') as ChineseSet['questions'] }
}

/** Chinese recall on own questions (with evidence), and the empty share on foreign ones (evidence []). */
function runChinese(list: readonly System[]): Record<string, { own: Score; foreignEmpty: number; foreignN: number }> {
  const set = loadChinese()
  const units: Unit[] = set.memories.map((m) => ({ id: m.id, text: m.text, at: m.at, covers: [m.id] }))
  const now = new Date(Math.max(...units.map((u) => Date.parse(u.at))) + 86_400_000)
  const asQuestion = (q: ChineseSet['questions'][number]): Question => ({ question: q.question, category: 0, evidence: q.evidence })
  const own = set.questions.filter((q) => q.evidence.length > 0).map(asQuestion)
  const foreign = set.questions.filter((q) => q.evidence.length === 0).map(asQuestion)
  const out: Record<string, { own: Score; foreignEmpty: number; foreignN: number }> = {}
  for (const system of list) {
    const f = finish(evaluate(system, [{ units, now, questions: foreign }]))
    out[system.name] = { own: finish(evaluate(system, [{ units, now, questions: own }])), foreignEmpty: f.empty, foreignN: f.n }
  }
  return out
}

// ---------------------------------------------------------------- report

function fmt(n: number | undefined, digits = 3): string {
  return n !== undefined && Number.isFinite(n) ? n.toFixed(digits) : '—'
}

function ratio(a: number | undefined, b: number | undefined): string {
  return a !== undefined && b !== undefined && b > 0 ? `${(a / b).toFixed(2)}×` : '—'
}

function pct(n: number): string {
  return `${(n * 100).toFixed(1)} %`
}

function printTable(header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: readonly string[]): string => '| ' + cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |'
  console.log(line(header))
  console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|')
  for (const row of rows) console.log(line(row))
}

function printUnits(result: UnitResult, title: string): void {
  console.log(`\n${title}`)
  const rows: string[][] = []
  for (const [half] of HALVES) {
    const peer = result.scores[MINISEARCH]![half]!
    for (const [name, byHalf] of Object.entries(result.scores)) {
      const s = byHalf[half]!
      rows.push([
        half,
        name,
        String(s.n),
        ...KS.map((k) => fmt(s.recall[k])),
        fmt(s.budgetRecall),
        fmt(s.charsAt10, 0),
        ratio(s.recall[10], peer.recall[10]),
        ratio(s.budgetRecall, peer.budgetRecall),
        ratio(s.charsAt10, peer.charsAt10),
      ])
    }
  }
  printTable(['half', 'system', 'n', ...KS.map((k) => `R@${k}`), `R@${BUDGET_CHARS}ch`, 'chars@10', 'R@10 ÷ mini', 'R@1000ch ÷ mini', 'chars@10 ÷ mini'], rows)
}

function printCategories(result: UnitResult): void {
  const names = ['multi-hop', 'temporal', 'open-domain', 'single-hop']
  console.log('\nPer turn, by question category (all ten conversations):')
  const rows: string[][] = []
  for (const name of [OURS, MINISEARCH]) {
    for (const [cat, s] of Object.entries(result.categories[name]!)) {
      const peer = result.categories[MINISEARCH]![cat]!
      rows.push([
        name,
        `${cat} ${names[Number(cat) - 1]}`,
        String(s.n),
        ...KS.map((k) => fmt(s.recall[k])),
        fmt(s.budgetRecall),
        ratio(s.recall[10], peer.recall[10]),
      ])
    }
  }
  printTable(['system', 'category', 'n', ...KS.map((k) => `R@${k}`), `R@${BUDGET_CHARS}ch`, 'R@10 ÷ mini'], rows)
}

function printAbstain(rows: Record<string, AbstainRow>): void {
  console.log('\nAbstention (per turn): a store asked the next conversation’s questions (foreign), and its own questions with and without the rule.')
  printTable(
    ['half', 'foreign n', 'foreign → empty', 'own R@10 without rule', 'own R@10 with rule', 'own R@10 lost', 'own → empty'],
    Object.entries(rows).map(([half, r]) => [
      half,
      String(r.foreignN),
      pct(r.foreignEmpty),
      fmt(r.ownRecall10WithoutRule),
      fmt(r.ownRecall10WithRule),
      pct(r.ownLoss),
      pct(r.ownEmpty),
    ]),
  )
}

function printChinese(result: ReturnType<typeof runChinese>): void {
  const set = loadChinese()
  console.log(
    `\nChinese set (bench/zh/: ${set.memories.length} memories, ${result[OURS]!.own.n} questions with evidence, ${result[OURS]!.foreignN} about nothing stored):`,
  )
  const peer = result[MINISEARCH]!.own
  printTable(
    ['system', ...KS.map((k) => `R@${k}`), `R@${BUDGET_CHARS}ch`, 'R@10 ÷ mini', 'foreign → empty'],
    Object.entries(result).map(([name, r]) => [
      name,
      ...KS.map((k) => fmt(r.own.recall[k])),
      fmt(r.own.budgetRecall),
      ratio(r.own.recall[10], peer.recall[10]),
      pct(r.foreignEmpty),
    ]),
  )
}

function printLatency(result: UnitResult): void {
  console.log('\nLoCoMo query latency (per turn, all questions). Ratio: ours / this system.')
  const ours = result.latency[OURS]!
  printTable(
    ['system', 'p50 (ms)', 'p95 (ms)', 'p50 ratio', 'p95 ratio'],
    Object.entries(result.latency).map(([name, l]) => [name, fmt(l.p50), fmt(l.p95), ratio(ours.p50, l.p50), ratio(ours.p95, l.p95)]),
  )
}

function printScale(s: ScaleResult): void {
  console.log(`\nScale: ${s.docs.toLocaleString('en')} synthetic memories (half Chinese, half English LoCoMo turns), ${s.queries} queries. Ratio: ours / peer.`)
  const rows = [
    ['build (ms)', fmt(s.ours.buildMs, 0), fmt(s.minisearch.buildMs, 0), fmt(s.plainBm25.buildMs, 0), ratio(s.ours.buildMs, s.minisearch.buildMs)],
    ['query p50 (ms)', fmt(s.ours.p50), fmt(s.minisearch.p50), fmt(s.plainBm25.p50), ratio(s.ours.p50, s.minisearch.p50)],
    ['query p95 (ms)', fmt(s.ours.p95), fmt(s.minisearch.p95), fmt(s.plainBm25.p95), ratio(s.ours.p95, s.minisearch.p95)],
    ['JSON size (MB)', fmt(s.ours.jsonMb, 1), '', '', ''],
    ['toJSON+stringify (ms)', fmt(s.ours.saveMs, 0), '', '', ''],
    ['parse+fromJSON (ms)', fmt(s.ours.loadMs, 0), '', '', `rebuild ÷ load ${ratio(s.ours.buildMs, s.ours.loadMs)}`],
    ['update one doc (ms, mean of 1000)', fmt(s.ours.updateMs), '', '', ''],
  ]
  if (s.ours.memory !== undefined && s.minisearch.memory !== undefined && s.ours.loadedMemory !== undefined) {
    rows.push([
      'retained: heap + buffers (MB)',
      fmt(s.ours.memory.heapMb, 1),
      fmt(s.minisearch.memory.heapMb, 1),
      '',
      ratio(s.ours.memory.heapMb, s.minisearch.memory.heapMb),
    ])
    rows.push(['retained when loaded from JSON (MB)', fmt(s.ours.loadedMemory.heapMb, 1), '', '', ''])
  }
  printTable(['measure', 'recall (ours)', 'minisearch', 'plain-bm25', 'ours ÷ minisearch'], rows)
}

// ---------------------------------------------------------------- targets

interface Target {
  name: string
  value: string
  met: boolean
}

function targets(turn: UnitResult, abstain: Record<string, AbstainRow>, scale: ScaleResult | undefined, own: OwnScore): Target[] {
  const out: Target[] = []
  out.push({ name: 'own set held-out hit@5 ≥ 0.90', value: own.hit5.toFixed(3), met: own.hit5 >= 0.9 })
  for (const kind of ['zh-en', 'en-zh']) {
    const k = own.byKind[kind]!
    out.push({ name: `own set held-out ${kind} hit@5 ≥ 0.80`, value: k.hit5.toFixed(2), met: k.hit5 >= 0.8 })
  }
  out.push({ name: 'own set held-out: answerable answered with nothing ≤ 2 %', value: pct(own.emptyAnswerable), met: own.emptyAnswerable <= 0.02 })
  out.push({ name: 'own set held-out: nothing stored, yet hits ≤ 25 %', value: pct(own.noneWithHits), met: own.noneWithHits <= 0.25 })
  for (const [half] of HALVES.slice(0, 2)) {
    const ours = turn.scores[OURS]![half]!
    const peer = turn.scores[MINISEARCH]![half]!
    const r = ours.recall[10]! / peer.recall[10]!
    out.push({ name: `per-turn R@10 ≥ 1.25 × minisearch (${half})`, value: `${r.toFixed(3)}×`, met: r >= 1.25 })
    const c = ours.charsAt10 / peer.charsAt10
    out.push({ name: `chars of our top 10 ≤ minisearch’s (${half})`, value: `${c.toFixed(2)}×`, met: c <= 1 })
    const a = abstain[half]!
    out.push({ name: `foreign questions → empty ≥ 50 % (${half})`, value: pct(a.foreignEmpty), met: a.foreignEmpty >= 0.5 })
    out.push({ name: `own R@10 lost to abstention ≤ 5 % (${half})`, value: pct(a.ownLoss), met: a.ownLoss <= 0.05 })
  }
  if (scale !== undefined) {
    const r = scale.ours.p95 / scale.minisearch.p95
    out.push({ name: `query p95 at ${scale.docs.toLocaleString('en')} ≤ minisearch’s`, value: `${r.toFixed(2)}×`, met: r <= 1 })
  }
  return out
}

// ---------------------------------------------------------------- main

function main(): void {
  const args = parseArgs(process.argv.slice(2))
  const started = performance.now()
  const conversations = loadLocomo(args.dataDir)
  const english = (): string[] => conversations.flatMap((c) => c.turns.map((t) => t.text))
  if (args.childFootprint !== undefined) {
    console.log(JSON.stringify(childFootprint(args.childFootprint, args.scale, english(), args.cacheFile ?? '')))
    return
  }
  const list = systems(args)
  const log = args.json ? (): void => {} : (text: string): void => console.log(text)
  log(`node ${process.version}, ICU ${process.versions.icu}, ${process.platform}/${process.arch}; data ${args.dataDir}`)
  if (args.abstainOnly) return printAbstain(runAbstain(conversations, args.options))
  const turn = runUnits(conversations, 'turn', list)
  if (!args.json) printUnits(turn, 'LoCoMo, one memory per dialogue turn (categories 1–4). Ratios: this system ÷ minisearch in the same half.')
  if (args.turnsOnly) return
  const base = list.slice(0, 4)
  const observation = runUnits(conversations, 'observation', base)
  const abstain = runAbstain(conversations, args.options)
  const chinese = runChinese(base)
  const own = (['held', 'tune'] as const).map((half) => ({
    half,
    rows: ownSystems(args.options).map(({ name, make }) => ({ name, score: runOwn(make, half) })),
  }))
  let scale: ScaleResult | undefined
  if (args.scale > 0) {
    const questions = conversations.flatMap((c) => c.questions.map((q) => q.question))
    const queries = Array.from({ length: 300 }, (_, i) =>
      i % 4 === 0 ? CHINESE_QUERIES[(i / 4) % CHINESE_QUERIES.length]! : questions[(i * 7) % questions.length]!,
    )
    scale = runScale(args.scale, english(), queries, args.dataDir, args.footprint)
  }
  const goals = targets(turn, abstain, scale, own[0]!.rows[0]!.score)
  if (args.json) {
    const env = { node: process.version, icu: process.versions.icu, platform: `${process.platform}/${process.arch}` }
    console.log(JSON.stringify({ env, turn, observation, abstain, chinese, own, scale, targets: goals }, null, 2))
    return
  }
  printUnits(observation, 'LoCoMo, one memory per session observation (evidence found = the turns an observation cites).')
  printCategories(turn)
  printAbstain(abstain)
  printChinese(chinese)
  for (const { half, rows } of own) printOwn(half, rows)
  printLatency(turn)
  if (scale !== undefined) printScale(scale)
  console.log('\nTargets:')
  printTable(
    ['target', 'measured', 'met'],
    goals.map((g) => [g.name, g.value, g.met ? 'yes' : 'NO']),
  )
  console.log(`\ntotal ${fmt((performance.now() - started) / 1000, 1)} s`)
}

main()
