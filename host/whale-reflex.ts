import path from 'node:path'
import type { Context } from '@deepseek-ai/cordis'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import type {} from '@deepseek-ai/dsh-agent'
import { appendLine } from '../memory/files.ts'
import { loadReflexText, resolveIn, type FsContext } from '../whale/files.ts'
import { ledgerRecord, matchReflex, parseReflexRules, reflexBody, reflexLedgerFile, type ReflexHit } from '../whale/reflex.ts'
import { framedWithin, latestUserText } from '../prompt/index.ts'

/**
 * The reflex layer (whale-persona §8) on a DSH host: a rule that matches the
 * person's latest message adds one short framed instruction to that step, as
 * a pre-step message after the person's own (never in the system prompt, so
 * the persona and §9's empty segments are untouched). Root agents only: a
 * subagent's "message" is its parent's task, not the person speaking.
 * Matching is string work on the files as they are now: no model call.
 */

/** Characters the instruction may take, frame included: its share of the 4000 of Cyrene's own injections (CONTRACT#budgets). */
export const REFLEX_MAX_CHARS = 200

const TITLE = 'whale-persona 条件反射'

/** Per-row state: `oncePerSession` bookkeeping and the last ledger failure, for the doctor. */
export class ReflexState {
  private readonly fired = new Map<string, Set<string>>()
  ledgerError: string | undefined

  firedIn(sessionId: string): ReadonlySet<string> {
    return this.fired.get(sessionId) ?? new Set()
  }

  markFired(sessionId: string, ruleId: string): void {
    const set = this.fired.get(sessionId) ?? new Set<string>()
    set.add(ruleId)
    this.fired.set(sessionId, set)
  }

  forget(sessionId: string): void {
    this.fired.delete(sessionId)
  }
}

/** The framed pre-step text of a hit, within REFLEX_MAX_CHARS (a longer instruction is cut with `…`, never the marker). */
export function reflexNoteText(hit: ReflexHit): string {
  return framedWithin(`${TITLE} · ${hit.rule.id}`, reflexBody(hit), REFLEX_MAX_CHARS).text
}

interface StepAgent {
  options?: { model?: string }
  session?: { id?: string }
}

export function registerReflexStep(ctx: Context, state: ReflexState): void {
  ctx.on('agent/pre-step', async (payload, next) => {
    const decision = await next()
    if (decision.kind !== 'enter') return decision
    try {
      if (!isRootAgent(ctx, payload.agent)) return decision
      const note = await reflexFor(payload.agent as StepAgent, latestUserText(payload.messages), state)
      return note === null ? decision : { ...decision, messages: [...decision.messages, note] }
    } catch {
      // a reflex can fail, a turn never does
      return decision
    }
  })
  ctx.on('agent/disposed', ({ agent }) => state.forget(String((agent as StepAgent).session?.id ?? '')))
}

/** Top-level agents only; without the registry nobody is known to be root, so nothing is added. */
function isRootAgent(ctx: Context, agent: unknown): boolean {
  const registry = ctx.get('agents')
  return registry !== undefined && registry.roots().some((root) => root === agent)
}

async function reflexFor(agent: StepAgent, text: string, state: ReflexState) {
  if (text === '') return null
  const fs: FsContext = { env: process.env, cwd: process.cwd() }
  const loaded = loadReflexText(fs)
  if (loaded.off) return null
  const rules = parseReflexRules(loaded.text)
  if (rules.rules.length === 0) return null
  const sessionId = agent.session?.id ?? ''
  const ctx = { text, model: agent.options?.model ?? '', fired: state.firedIn(sessionId) }
  const hit = matchReflex(rules, ctx)
  if (hit === null) return null
  // A dry run counts as fired too, so its ledger shows what a live run would have done.
  if (sessionId !== '') state.markFired(sessionId, hit.rule.id)
  await writeLedger(path.resolve(resolveIn(fs, loaded.file)), JSON.stringify(ledgerRecord(hit, ctx, new Date().toISOString(), rules.dryRun)), state)
  if (rules.dryRun) return null
  return createUserMessage({
    content: [{ type: 'text', text: reflexNoteText(hit) }],
    source: { kind: 'plugin', plugin: 'dsh-cyrene-philia093-0', form: 'notice', summary: `条件反射 ${hit.rule.id}` },
  })
}

/** The ledger is the project's append-only log: O_APPEND, 0600, a symbolic link refused. Its failure costs no turn. */
async function writeLedger(rulesFile: string, line: string, state: ReflexState): Promise<void> {
  const ledger = reflexLedgerFile(rulesFile)
  try {
    await appendLine(ledger, line)
    state.ledgerError = undefined
  } catch (error) {
    state.ledgerError = `${ledger}: ${(error as Error).message}`
  }
}
