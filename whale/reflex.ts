import path from 'node:path'
import { isRecord, parseJson } from './json.ts'
import { tierOf } from './model-match.ts'

/**
 * The optional reflex layer (spec §8): rules that, when a message matches,
 * add one very short instruction for this step. Matching is pure string
 * work: no model call, no retrieval, no tokens. Factory state is zero rules.
 */
interface ReflexRule {
  id: string
  priority: number
  oncePerSession: boolean
  when: {
    tier: 'flash' | 'pro' | 'any'
    text: string
    nearAny: string[]
    keywords: string[]
    minHits: number
    textNot: string
    maxChars: number
  }
  then: { reply: string; directive: string }
}

export interface ReflexRules {
  enabled: boolean
  dryRun: boolean
  rules: ReflexRule[]
}

const NO_RULES: ReflexRules = Object.freeze({ enabled: true, dryRun: false, rules: [] })

/** User regexes only ever see this much text, which bounds the cost of a bad pattern. */
const MAX_MATCH_CHARS = 2000

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [])
const str = (value: unknown): string => (typeof value === 'string' ? value : '')

function readRule(raw: unknown): ReflexRule | null {
  if (!isRecord(raw) || typeof raw.id !== 'string' || !raw.id.trim() || !isRecord(raw.then)) return null
  const reply = str(raw.then.reply)
  const directive = str(raw.then.directive)
  if (!reply && !directive) return null // a rule without an action does nothing
  const w = isRecord(raw.when) ? raw.when : {}
  const tier = w.tier === 'flash' || w.tier === 'pro' ? w.tier : 'any'
  const minHits = Number(w.minHits)
  const maxChars = Number(w.maxChars)
  return {
    id: raw.id.trim(),
    priority: Number.isFinite(Number(raw.priority)) ? Number(raw.priority) : 0,
    oncePerSession: raw.oncePerSession === true,
    when: {
      tier,
      text: str(w.text),
      nearAny: strings(w.nearAny),
      keywords: strings(w.keywords),
      minHits: Number.isInteger(minHits) && minHits > 0 ? minHits : 2,
      textNot: str(w.textNot),
      maxChars: Number.isFinite(maxChars) && maxChars > 0 ? maxChars : 0,
    },
    then: { reply, directive },
  }
}

/** Bad files degrade to "no rules": a reflex can fail, a turn never does. */
export function parseReflexRules(text: string | null): ReflexRules {
  if (text === null) return NO_RULES
  const parsed = parseJson(text)
  if (!parsed.ok || !isRecord(parsed.value)) return NO_RULES
  const v = parsed.value
  const rules = (Array.isArray(v.rules) ? v.rules : []).map(readRule).filter((r): r is ReflexRule => r !== null)
  return { enabled: v.enabled !== false, dryRun: v.dryRun === true, rules }
}

/** Folds form, not meaning: NFKC (full width → half width), lower case, no spaces or punctuation. */
export function foldForMatch(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]+/gu, '')
}

function regexHit(pattern: string, text: string): boolean {
  if (!pattern) return false
  try {
    return new RegExp(pattern, 'iu').test(text.slice(0, MAX_MATCH_CHARS))
  } catch {
    return false // an invalid pattern matches nothing
  }
}

export interface ReflexContext {
  text: string
  model: string
  /** Ids already fired in this session, for `oncePerSession`. */
  fired?: ReadonlySet<string>
}

export interface ReflexHit {
  rule: ReflexRule
  /** Keyword hits are soft: the instruction tells the model to ignore it when it does not fit. */
  soft: boolean
  channel: 'text' | 'nearAny' | 'keywords'
}

function matchOne(rule: ReflexRule, ctx: ReflexContext, folded: string): ReflexHit | null {
  const w = rule.when
  if (w.tier !== 'any' && w.tier !== tierOf(ctx.model)) return null
  if (w.maxChars && ctx.text.length > w.maxChars) return null
  if (rule.oncePerSession && ctx.fired?.has(rule.id)) return null
  if (regexHit(w.textNot, ctx.text)) return null
  if (regexHit(w.text, ctx.text)) return { rule, soft: false, channel: 'text' }
  if (
    w.nearAny.some((phrase) => {
      const p = foldForMatch(phrase)
      return p !== '' && folded.includes(p)
    })
  )
    return { rule, soft: false, channel: 'nearAny' }
  if (w.keywords.length) {
    const hits = w.keywords.filter((k) => {
      const f = foldForMatch(k)
      return f !== '' && folded.includes(f)
    }).length
    if (hits >= w.minHits) return { rule, soft: true, channel: 'keywords' }
  }
  return null
}

/** The first hit by priority (file order among equals); one rule at most, never a blend. */
export function matchReflex(rules: ReflexRules, ctx: ReflexContext): ReflexHit | null {
  if (!rules.enabled) return null
  const folded = foldForMatch(ctx.text.slice(0, MAX_MATCH_CHARS))
  const ordered = rules.rules.map((rule, index) => ({ rule, index })).sort((a, b) => b.rule.priority - a.rule.priority || a.index - b.index)
  for (const { rule } of ordered) {
    const hit = matchOne(rule, ctx, folded)
    if (hit) return hit
  }
  return null
}

/** What a hit asks of the model, without a heading (a host puts it in a titled frame). */
export function reflexBody(hit: ReflexHit): string {
  const lines: string[] = []
  if (hit.rule.then.reply) lines.push('这一步直接回复下面这句：' + hit.rule.then.reply)
  if (hit.rule.then.directive) lines.push(hit.rule.then.directive)
  if (hit.soft) lines.push('这是按关键词的软匹配：不符就完全忽略本条。')
  return lines.join('\n')
}

/** The one short instruction a hit adds. Our wording; the soft-hit escape is the spec's own phrase. */
export function reflexInstruction(hit: ReflexHit): string {
  return '[whale-persona 条件反射 · ' + hit.rule.id + ']\n' + reflexBody(hit)
}

/**
 * What is wrong with a rules file, in words a person can act on; empty when
 * nothing is. Matching never needs this: a broken file simply matches nothing.
 */
export function reflexProblems(text: string | null): string[] {
  if (text === null) return []
  const parsed = parseJson(text)
  if (!parsed.ok) return ['not valid JSON: fix the file or remove it (no rule applies meanwhile)']
  if (!isRecord(parsed.value)) return ['not a JSON object with a "rules" list: no rule applies']
  const raw = parsed.value.rules
  if (raw !== undefined && !Array.isArray(raw)) return ['"rules" is not a list: no rule applies']
  const problems: string[] = []
  const list = Array.isArray(raw) ? raw : []
  const dropped = list.filter((r) => readRule(r) === null).length
  if (dropped > 0) problems.push(`${dropped} rule(s) ignored: each needs an "id" and a "then.reply" or "then.directive"`)
  for (const rule of list.map(readRule)) {
    if (rule === null) continue
    for (const key of ['text', 'textNot'] as const) {
      if (rule.when[key] && !validPattern(rule.when[key])) problems.push(`rule "${rule.id}": when.${key} is not a valid regular expression, it matches nothing`)
    }
  }
  return problems
}

function validPattern(pattern: string): boolean {
  try {
    return new RegExp(pattern, 'iu') instanceof RegExp
  } catch {
    return false
  }
}

/** The hit ledger lives beside the rules file it records, whichever file that is. */
export function reflexLedgerFile(rulesFile: string): string {
  return path.join(path.dirname(rulesFile), 'reflex-hits.jsonl')
}

export type LedgerRecord = ReturnType<typeof ledgerRecord>

/** The newest `count` well-formed ledger lines, newest last; a torn or foreign line is skipped. */
export function lastLedgerRecords(text: string, count: number): LedgerRecord[] {
  const records: LedgerRecord[] = []
  const lines = text.split('\n')
  for (let i = lines.length - 1; i >= 0 && records.length < count; i--) {
    const parsed = parseJson(lines[i]!)
    if (!parsed.ok || !isRecord(parsed.value)) continue
    const v = parsed.value
    if (typeof v.id !== 'string' || typeof v.tier !== 'string' || typeof v.excerpt !== 'string' || typeof v.at !== 'string') continue
    records.unshift({ at: v.at, id: v.id, tier: v.tier, excerpt: v.excerpt, dryRun: v.dryRun === true })
  }
  return records
}

/** The hit ledger keeps only the rule id, the tier and the first 40 characters of the message. */
export function ledgerRecord(
  hit: ReflexHit,
  ctx: ReflexContext,
  at: string,
  dryRun: boolean,
): { at: string; id: string; tier: string; excerpt: string; dryRun: boolean } {
  return { at, id: hit.rule.id, tier: tierOf(ctx.model), excerpt: [...ctx.text].slice(0, 40).join(''), dryRun }
}
