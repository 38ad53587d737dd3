import { charCount, frameOverhead, frameToken } from '../prompt/index.ts'
import { framedWithin, inertBraces, promptReferences } from '../prompt/index.ts'

/**
 * The sealed persona (`complete: true`) replaces every system-prompt section
 * with itself, so tool guidance, plan policy and other plugins' sections never
 * reach the model. The `system-prompt/assemble` waterfall still sees them all;
 * this pure function decides which to carry over as runtime contexts.
 *
 * Two budgets (CONTRACT#section-mirror): DSH's own guidance (`tool:*`, `plan:*`,
 * `ui:*`) is what the base preset gives its model, so it is carried whole —
 * a Cyrene preset must be as capable as the preset it stands on — within a
 * ceiling that only a runaway section reaches. Every other section (another
 * plugin's, `whale:*`, unknown names) shares a small bounded budget.
 */
export type MirrorMode = 'auto' | 'off' | 'allowlist'

export interface MirrorConfig {
  mode: MirrorMode
  /** Ceiling for DSH's own guidance (`tool:`/`plan:`/`ui:`), carried whole, frames included. */
  guidanceMaxChars: number
  /** Total characters every other mirrored section may take (another plugin's, `whale:*`, unknown). */
  maxChars: number
  /** Characters one of those other sections may take; longer text is cut. */
  perSectionMax: number
  /** Mirror sections whose names follow no known pattern. */
  mirrorUnknown: boolean
  /** Names (or `prefix*`) mirrored in `allowlist` mode, and always mirrored in `auto`. */
  allow: string[]
}

export interface Section {
  name: string
  text: string
}

/** `guidance`: DSH's own tool/plan/ui guidance, carried whole; `other`: everything else, bounded. */
type MirrorKind = 'guidance' | 'other'

export interface MirrorReport {
  /** `text`: the section's own characters; `chars`: the framed block; `cut`: characters left out. */
  mirrored: { name: string; kind: MirrorKind; text: number; chars: number; cut: number }[]
  skipped: { name: string; why: string }[]
}

export const MIRROR_PREFIX = 'cyrene:mirror:'
const MIN_USEFUL_CHARS = 120
const NEVER = /^deployment:/
/** DSH's own namespaces in rc.8: tool guidance, the plan policy, the web client's response rules. */
const GUIDANCE = /^(tool|plan|ui):/
const ALWAYS = /^(tool|plan|ui|whale):/
const IDENTITY_WORDS = /persona|identity|system|brand/i

function mirrorKind(name: string): MirrorKind {
  return GUIDANCE.test(name) ? 'guidance' : 'other'
}

function allowed(name: string, allow: string[]): boolean {
  return allow.some((pattern) => (pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern))
}

function decide(name: string, config: MirrorConfig): string | undefined {
  if (NEVER.test(name)) return 'deployment sections (the persona) are never mirrored'
  if (config.mode === 'off') return 'mirror is off'
  if (allowed(name, config.allow)) return undefined
  if (config.mode === 'allowlist') return 'not in the allowlist'
  if (ALWAYS.test(name)) return undefined
  if (IDENTITY_WORDS.test(name)) return 'names an identity (persona/identity/system/brand)'
  return config.mirrorUnknown ? undefined : 'unknown name and mirrorUnknown is off'
}

/**
 * Keep `{{name}}` references DSH can resolve for this assembly; make every
 * other one inert, since a swallowed section never failed the turn and its
 * mirror must not start to.
 */
export function interpolationSafe(text: string, variables: Record<string, string | undefined>): string {
  const resolvable = (name: string) => Object.hasOwn(variables, name) && variables[name] !== undefined
  if (promptReferences(text).every((r) => r.wellFormed && resolvable(r.name))) return text
  let out = ''
  let last = 0
  for (const ref of promptReferences(text)) {
    const end = text.indexOf('}}', ref.at + 2) + 2
    if (end < 2) continue
    const group = text.slice(ref.at, end)
    out += text.slice(last, ref.at) + (ref.wellFormed && resolvable(ref.name) ? group : inertBraces(group))
    last = end
  }
  return out + text.slice(last)
}

/** Characters left in each budget while the sections of one assembly are mirrored. */
interface Budgets {
  guidance: number
  other: number
}

/** How many characters this section's block may take, frame included. */
function allowance(kind: MirrorKind, left: Budgets, config: MirrorConfig): number {
  return kind === 'guidance' ? left.guidance : Math.min(config.perSectionMax, left.other)
}

function budgetName(kind: MirrorKind, config: MirrorConfig): string {
  return kind === 'guidance' ? `guidance ceiling of ${config.guidanceMaxChars} chars` : `budget of ${config.maxChars} chars for other sections`
}

/**
 * Everything `mirrorSections` depends on besides its config: the sections, which variables this
 * assembly can resolve (not their values) and the frame token. The same key means the same mirror,
 * so a row keeps the last one (DSH's sections rarely change between steps).
 */
export function mirrorInputKey(sections: readonly Section[], variables: Record<string, string | undefined>): string {
  const resolvable = Object.keys(variables)
    .filter((name) => variables[name] !== undefined)
    .sort()
  return JSON.stringify([frameToken(), resolvable, sections.map((s) => [s.name, s.text])])
}

export function mirrorSections(
  sections: readonly Section[],
  variables: Record<string, string | undefined>,
  config: MirrorConfig,
): { contexts: Section[]; report: MirrorReport } {
  const report: MirrorReport = { mirrored: [], skipped: [] }
  const contexts: Section[] = []
  const left: Budgets = { guidance: config.guidanceMaxChars, other: config.maxChars }
  for (const section of sections) {
    const why = decide(section.name, config)
    if (why !== undefined) {
      report.skipped.push({ name: section.name, why })
      continue
    }
    const text = interpolationSafe(section.text.trim(), variables)
    if (text === '') continue
    const kind = mirrorKind(section.name)
    // A section name is foreign text in our header: it must not carry a bracket or a variable.
    const title = inertBraces(section.name)
    // Characters are code points (prompt/budget.ts), the frame's share included; a cut never splits one.
    const budget = allowance(kind, left, config)
    const room = budget - frameOverhead(title)
    const chars = charCount(text)
    // Guidance is carried whole or not at all (half a tool's rules misleads); a sliver of another section likewise.
    if (kind === 'guidance' ? room < chars : room < Math.min(chars, MIN_USEFUL_CHARS)) {
      report.skipped.push({ name: section.name, why: `mirror ${budgetName(kind, config)} used up` })
      continue
    }
    const framedText = framedWithin(title, text, budget).text
    const framedChars = charCount(framedText)
    contexts.push({ name: MIRROR_PREFIX + section.name, text: framedText })
    left[kind] -= framedChars
    report.mirrored.push({ name: section.name, kind, text: chars, chars: framedChars, cut: Math.max(0, chars - room) })
  }
  return { contexts, report }
}
