import type { Context } from '@deepseek-ai/cordis'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import type {} from '@deepseek-ai/dsh-agent'
import type {} from '@deepseek-ai/dsh-system-prompt'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type {} from '../host/service.ts'
import type {} from '../host/whale-row.ts'
import { chooseForm, type FormChoice } from './form-chooser.ts'
import { recallPassBlock } from './recall-step.ts'
import type { RailStep, PassBlock, RailsRowConfig } from './types.ts'
import { latestUserText } from '../prompt/index.ts'
import { PASS_TOTAL, runPass, type PassResult } from './pass.ts'
import { REFLEX_MAX_CHARS } from '../host/whale-reflex.ts'
import { formMarkerBlock } from './form-rail.ts'
import { fixedBlock, RAILS } from './list.ts'
import { memoryBlock, memoryNow } from './memory-var.ts'
import { planBridgeSpec } from './plan-bridge-rail.ts'
import { notePass } from './report.ts'
import { pinnedForm, voiceTextsFor } from './voice-state.ts'
import type { RecalledEntry } from '../recall/index.ts'

/**
 * Everything Cyrene injects into one step, through one budget pass (CONTRACT#budget-pass, 4,000 characters with frames): rails 120–155 as runtime contexts,
 * `{{cyrene_memory}}`, and the pre-step messages (form marker, memory hits,
 * the worldbook's hits).
 *
 * When DSH runs what (dsh-agent-loop 0.1.0-rc.8, `preStep`): the inbox is
 * claimed (`agent/inbox/claimed`, one sync emit per message), then the prompt
 * is assembled (variables, contexts, then the `system-prompt/assemble`
 * waterfall), then `agent/pre-step` runs with the claimed messages. So the
 * pre-step comes after the assembly of the same step, and the pass runs in the
 * assembly waterfall: it already knows the person's new message (from the
 * claim), fetches its memory hits there, decides every block at once, writes
 * the rails and the variable into the assembly and leaves the pre-step blocks
 * for this agent's pre-step, which only appends what the pass decided. Both
 * channels see one decision.
 *
 * The context providers render each rail at its own cap, so an assembly the
 * waterfall cannot finish still carries rails within their caps.
 */

/** Per agent: the person's latest words, and what waits for the next pre-step. */
interface AgentVoice {
  latestText: string
  /** Set by a claim, cleared by the pre-step: the step whose memory hits are still to be fetched or sent. */
  query: string | undefined
  hits: RecalledEntry[] | undefined
  /** The form the model was last told about in a step (rail sent with a pre-step). */
  announced: string | undefined
  /** What the latest pass left for the pre-step of this step. */
  pending: { blocks: { id: string; text: string; summary: string }[]; form: string | undefined } | undefined
}

/** `/cyrene nickname`, `/cyrene form`, `/cyrene style`: the person's choices for rails 120, 125 and 130, rows of the `/cyrene` table (runtime/commands.ts). */
export { formSubcommand, nicknameSubcommand, styleSubcommand } from './commands.ts'

export function registerRails(ctx: Context, config: RailsRowConfig): void {
  const agents = new WeakMap<object, AgentVoice>()
  const voiceOf = (agent: object): AgentVoice => {
    let v = agents.get(agent)
    if (v === undefined) {
      v = { latestText: '', query: undefined, hits: undefined, announced: undefined, pending: undefined }
      agents.set(agent, v)
    }
    return v
  }

  type RailSet = { blocks: PassBlock[]; form: FormChoice | undefined; problems: string[] }
  // One assembly asks for the rails from each context provider and from the waterfall, with the same context object: read once.
  const perAssembly = new WeakMap<object, RailSet>()
  const railsFor = (context: { agent?: Agent | undefined }): RailSet => {
    let set = perAssembly.get(context)
    if (set === undefined) {
      set = railBlocks(context.agent, context)
      perAssembly.set(context, set)
    }
    return set
  }

  /** The rails' inputs now (settings, forms/styles, the form for this agent), then each mounted rail's block, in context order. */
  const railBlocks = (agent: Agent | undefined, assembly: object): RailSet => {
    const memory = ctx.get('cyreneMemory')
    const problems: string[] = []
    const texts = config.rails.scene || config.rails.style ? voiceTextsFor(memory?.texts) : undefined
    if (texts !== undefined) problems.push(...texts.problems)
    // Its problems (a bad nickname or style value, bad JSON) are the store's settings lines in the doctor already.
    const settings = memory?.voice.settings(assembly) ?? { problems: [] }
    const step: RailStep = { ctx, config, agent, assembly, texts, settings, form: undefined, problems }
    if (config.rails.scene && texts !== undefined) {
      const sessionId = agent?.session.id
      step.form = chooseForm(texts.forms, {
        pinned: sessionId === undefined ? undefined : pinnedForm(sessionId),
        text: agent === undefined ? '' : (agents.get(agent)?.latestText ?? ''),
        hour: new Date().getHours(),
      })
    }
    const blocks: PassBlock[] = []
    for (const rail of RAILS) {
      if (!rail.enabled(config)) continue
      const block = rail.block?.(step)
      if (block !== undefined) blocks.push(block)
    }
    return { blocks, form: step.form, problems }
  }

  // The person's words reach the agent before the assembly that answers them (see above).
  ctx.on('agent/inbox/claimed', ({ agent, message }) => {
    const text = latestUserText([message])
    if (text === '') return
    const v = voiceOf(agent)
    v.latestText = text
    v.query = text
    v.hits = undefined
  })

  // Fail-open rails: each at its own cap; the waterfall below replaces them with the pass's texts.
  // Which rails this row draws (the plan bridge is another row's context; the pass only sizes it).
  for (const rail of RAILS) {
    if (!rail.enabled(config)) continue
    ctx.systemPrompt.context({
      name: rail.context,
      order: rail.order,
      text: (assembly) => {
        try {
          const block = railsFor(assembly).blocks.find((b) => b.id === rail.id)
          return block === undefined ? '' : block.render(block.cap)
        } catch {
          return ''
        }
      },
    })
  }

  ctx.on('system-prompt/assemble', async (_assembly, context, next) => {
    const result = await next()
    // Only assemblies of a Cyrene preset carry our variable.
    if (result.variables.cyrene_memory === undefined) return result
    try {
      const agent = context.agent
      const v = agent === undefined ? undefined : voiceOf(agent)
      const rails = railsFor(context)
      const { form, problems } = rails
      const blocks = [...rails.blocks]
      const bridge = result.contexts.find((c) => c.name === planBridgeSpec.context)
      if (bridge !== undefined && bridge.text !== '') blocks.push(fixedBlock(planBridgeSpec.id, 'rail', planBridgeSpec.cap, bridge.text))
      // The same block the variable showed in this assembly, and the ids the hits leave out with it.
      const memory = memoryNow(ctx, context)
      blocks.push(memoryBlock(memory.text))
      const step: PassBlock[] = []
      if (v !== undefined && form !== undefined && v.announced !== undefined && v.announced !== form.form.name) step.push(formMarkerBlock(v.announced, form))
      // Like the memory hits: only in a step that brings the person's words, not in a tool round.
      if (v !== undefined && v.query !== undefined && config.rails.worldbook) {
        const wb = config.worldbook?.step(agent, v.latestText)
        if (wb !== undefined) step.push(wb)
      }
      if (v !== undefined && v.query !== undefined && config.recall.enabled) {
        v.hits ??= await recallFor(ctx, v.query, config.recall.limit)
        if (v.hits.length > 0) step.push(recallPassBlock(v.hits, config.recall, memory.ids))
      }
      // The whale row's reflex instruction (≤ 200, its own pre-step) reaches the model beside ours in a Cyrene preset: its room is kept free.
      const pass = runPass([...blocks, ...step], PASS_TOTAL - (ctx.get('whalePersona') === undefined ? 0 : REFLEX_MAX_CHARS))
      notePass(ctx.get('cyreneMemory'), noteOf(pass, problems))
      if (v !== undefined)
        v.pending = {
          blocks: pass.blocks.filter((b) => b.channel === 'pre-step' && b.text !== '').map((b) => ({ id: b.id, text: b.text, summary: SUMMARY[b.id] ?? b.id })),
          form: form?.form.name,
        }
      return applyPass(result, pass)
    } catch {
      return result
    }
  })

  // The pre-step only appends what the pass of this step's assembly decided.
  ctx.on('agent/pre-step', async (payload, next) => {
    const decision = await next()
    const v = agents.get(payload.agent)
    if (v === undefined || decision.kind !== 'enter') return decision
    const pending = v.pending
    v.pending = undefined
    v.query = undefined
    v.hits = undefined
    if (pending === undefined) return decision
    if (pending.form !== undefined) v.announced = pending.form
    if (pending.blocks.length === 0) return decision
    const notes = pending.blocks.map((b) =>
      createUserMessage({
        content: [{ type: 'text', text: b.text }],
        source: { kind: 'plugin', plugin: 'dsh-cyrene-philia093-0', form: 'notice', summary: b.summary },
      }),
    )
    return { ...decision, messages: [...decision.messages, ...notes] }
  })
}

const SUMMARY: Record<string, string> = { 'step:form': '形态切换', 'step:recall': '记忆命中', 'step:worldbook': '世界书' }

async function recallFor(ctx: Context, query: string, limit: number): Promise<RecalledEntry[]> {
  try {
    return (await ctx.get('cyreneMemory')?.recall(query, limit)) ?? []
  } catch {
    return []
  }
}

type Assembly = { contexts: { name: string; text: string }[]; variables: Record<string, string | undefined> }

/** The pass's texts written into the assembly: rails by context name, the memory variable by name. */
function applyPass<A extends Assembly>(assembly: A, pass: PassResult): A {
  const byContext = new Map<string, string>()
  let memory: string | undefined
  for (const b of pass.blocks) {
    if (b.id === 'var:cyrene_memory') memory = b.text
    const rail = RAILS.find((r) => r.id === b.id)
    if (rail !== undefined) byContext.set(rail.context, b.text)
  }
  return {
    ...assembly,
    contexts: assembly.contexts.map((c) => (byContext.has(c.name) ? { ...c, text: byContext.get(c.name)! } : c)),
    variables: memory === undefined ? assembly.variables : { ...assembly.variables, cyrene_memory: memory },
  }
}

function noteOf(pass: PassResult, problems: string[]) {
  return {
    total: pass.total,
    budget: pass.budget,
    blocks: pass.blocks.map((b) => ({ id: b.id, chars: b.chars, cut: b.full - b.chars, ...(b.why === undefined ? {} : { why: b.why }) })),
    problems: [...new Set(problems)],
  }
}
