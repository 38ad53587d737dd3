// LoCoMo, read as the bench needs it: one unit per dialogue turn or per session
// observation, and the questions of categories 1–4 with their evidence turns.
// The data is read from the shared folder (or --data); it is never copied.

import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The shared folder sits beside the repository (../shared), wherever it was cloned; a
 * worktree one level deeper (…/wt/<name>) finds it one level further up.
 */
export const LOCOMO_DIR =
  ['../../shared/bench/locomo10', '../../../shared/bench/locomo10'].map((rel) => fileURLToPath(new URL(rel, import.meta.url))).find((dir) => existsSync(dir)) ??
  fileURLToPath(new URL('../../shared/bench/locomo10', import.meta.url))

/** One indexed document: a dialogue turn, or a session observation (a one-line fact about a speaker). */
export interface Unit {
  id: string
  text: string
  at: string
  /** The dialogue ids this document stands for (evidence found = the ids of the retrieved units). */
  covers: string[]
}

export interface Question {
  question: string
  category: number
  evidence: string[]
}

export interface Conversation {
  /** 1-based position in file-name order: 1–5 are tuned on, 6–10 held out. */
  number: number
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

function loadConversation(path: string, name: string, number: number): Conversation {
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
  return { number, name, turns, observations, questions, now: new Date(last + 86_400_000) }
}

/** Every conversation in `dir`, in file-name order. */
export function loadLocomo(dir: string): Conversation[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f, i) => loadConversation(join(dir, f), f, i + 1))
}
