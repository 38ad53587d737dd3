import type { Context } from '@deepseek-ai/cordis'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import type {} from '@deepseek-ai/dsh-agent'
import type {} from '@deepseek-ai/dsh-system-prompt'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type {} from '../host/service.ts'
import type {} from '../host/whale-row.ts'
import { MEMORY_TITLE } from '../host/memory-block.ts'
import { capabilityBlock, type CapabilityConfig } from './capability-rail.ts'
import { EMPTY_MEMORY } from './framing.ts'
import { chooseForm, type FormChoice } from './form-chooser.ts'
import { latestUserText, recallVoiceBlock, type RecallConfig } from './recall-step.ts'
import type { VoiceBlock } from './voice-block.ts'
import { VOICE_TOTAL, voicePass, type VoicePass } from './voice-budget.ts'
import { REFLEX_MAX_CHARS } from '../host/whale-reflex.ts'
import { formBlock, formMarkerBlock, frameOrNothing, nicknameBlock, PRIORITY, styleBlock } from './voice-rails.ts'
import { pinnedForm, voiceTextsFor } from './voice-state.ts'
import type { RecalledEntry } from '../memory/index.ts'
import { charCount } from '../memory/index.ts'

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

export interface Rails {
  nickname: boolean
  style: boolean
  scene: boolean
  worldbook: boolean
}

/**
 * Where the worldbook (rail 140 and its keyword hits) plugs in: `worldbook/`
 * gives its blocks as `VoiceBlock`s (`rail:worldbook`, priority
 * `PRIORITY['rail:worldbook']`; `step:worldbook`, `PRIORITY['step:worldbook']`)
 * and they go through the same pass: pass them as `VoiceConfig.worldbook` and
 * this row registers the context `WORLDBOOK_CONTEXT` (order 140) for the rail;
 * the hits are appended after the form marker, before the memory hits.
 */
export interface WorldbookBlocks {
  rail(agent: Agent | undefined): VoiceBlock | undefined
  step(agent: Agent | undefined, recentUserText: string): VoiceBlock | undefined
}
const WORLDBOOK_CONTEXT = 'cyrene:worldbook'

export interface VoiceConfig {
  rails: Rails
  defaultNickname: string
  capability: CapabilityConfig
  recall: RecallConfig
  worldbook?: WorldbookBlocks
}

/** Context names of the rails, and the id of the block each carries. */
const RAIL_CONTEXTS = {
  'rail:nickname': { name: 'cyrene:nickname', order: 120 },
  'rail:form': { name: 'cyrene:form', order: 125 },
  'rail:style': { name: 'cyrene:style', order: 130 },
  'rail:worldbook': { name: WORLDBOOK_CONTEXT, order: 140 },
  'rail:capability': { name: 'cyrene:capability', order: 150 },
  'rail:plan-bridge': { name: 'cyrene:plan-bridge', order: 155 },
} as const

export const MEMORY_CAP = 1200

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

export function memoryBlock(text: string): VoiceBlock {
  const body = text === '' ? EMPTY_MEMORY : text
  return {
    id: 'var:cyrene_memory',
    channel: 'variable',
    priority: PRIORITY['var:cyrene_memory'],
    cap: MEMORY_CAP,
    // The body is the reader's (already neutralised, composed within the same cap); only cut here when the pass asks for less.
    render: (max) => frameOrNothing(MEMORY_TITLE, body, Math.min(max, MEMORY_CAP)),
  }
}

/** A block some other row drew already (the plan bridge): whole, or left out. */
export function fixedBlock(id: keyof typeof PRIORITY, channel: VoiceBlock['channel'], cap: number, text: string): VoiceBlock {
  return { id, channel, priority: PRIORITY[id], cap, render: (max) => (charCount(text) <= Math.min(max, cap) ? text : '') }
}

const PLAN_BRIDGE_CAP = 300

export function registerVoice(ctx: Context, config: VoiceConfig): void {
  const agents = new WeakMap<object, AgentVoice>()
  const voiceOf = (agent: object): AgentVoice => {
    let v = agents.get(agent)
    if (v === undefined) {
      v = { latestText: '', query: undefined, hits: undefined, announced: undefined, pending: undefined }
      agents.set(agent, v)
    }
    return v
  }

  type RailSet = { blocks: VoiceBlock[]; form: FormChoice | undefined; problems: string[] }
  // One assembly asks for the rails from each context provider and from the waterfall, with the same context object: read once.
  const perAssembly = new WeakMap<object, RailSet>()
  const railsFor = (context: { agent?: Agent | undefined }): RailSet => {
    let set = perAssembly.get(context)
    if (set === undefined) {
      set = railBlocks(context.agent)
      perAssembly.set(context, set)
    }
    return set
  }

  /** The rails' inputs now: settings, forms/styles, the form for this agent. */
  const railBlocks = (agent: Agent | undefined): RailSet => {
    const memory = ctx.get('cyreneMemory')
    const blocks: VoiceBlock[] = []
    const problems: string[] = []
    let form: FormChoice | undefined
    const texts = config.rails.scene || config.rails.style ? voiceTextsFor(memory) : undefined
    if (texts !== undefined) problems.push(...texts.problems)
    // Its problems (a bad nickname or style value, bad JSON) are the store's settings lines in the doctor already.
    const settings = memory?.voiceSettings() ?? { problems: [] }
    if (config.rails.nickname) blocks.push(nicknameBlock(nicknameOf(ctx, config.defaultNickname)))
    if (config.rails.scene && texts !== undefined) {
      const sessionId = agent?.session.id
      form = chooseForm(texts.forms, {
        pinned: sessionId === undefined ? undefined : pinnedForm(sessionId),
        text: agent === undefined ? '' : (agents.get(agent)?.latestText ?? ''),
        hour: new Date().getHours(),
      })
      if (form !== undefined) blocks.push(formBlock(form))
    }
    if (config.rails.style && texts !== undefined) {
      const wanted = settings.style
      const style = texts.styles.find((s) => s.name === wanted) ?? texts.styles.find((s) => s.name === texts.defaultStyle)
      if (wanted !== undefined && style?.name !== wanted)
        problems.push(`元/settings.json style 「${wanted}」 is not a level of the styles file; using 「${style?.name}」`)
      if (style !== undefined) blocks.push(styleBlock(style))
    }
    if (config.rails.worldbook) {
      const wb = config.worldbook?.rail(agent)
      if (wb !== undefined) blocks.push(wb)
    }
    if (config.capability.enabled) blocks.push(capabilityBlock(config.capability))
    return { blocks, form, problems }
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
  const mounted: Record<keyof typeof RAIL_CONTEXTS, boolean> = {
    'rail:nickname': config.rails.nickname,
    'rail:form': config.rails.scene,
    'rail:style': config.rails.style,
    'rail:worldbook': config.rails.worldbook && config.worldbook !== undefined,
    'rail:capability': config.capability.enabled,
    'rail:plan-bridge': false,
  }
  for (const [id, { name, order }] of Object.entries(RAIL_CONTEXTS)) {
    if (!mounted[id as keyof typeof RAIL_CONTEXTS]) continue
    ctx.systemPrompt.context({
      name,
      order,
      text: (assembly) => {
        try {
          const block = railsFor(assembly).blocks.find((b) => b.id === id)
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
      const bridge = result.contexts.find((c) => c.name === RAIL_CONTEXTS['rail:plan-bridge'].name)
      if (bridge !== undefined && bridge.text !== '') blocks.push(fixedBlock('rail:plan-bridge', 'rail', PLAN_BRIDGE_CAP, bridge.text))
      blocks.push(memoryBlock(memoryText(ctx)))
      const step: VoiceBlock[] = []
      if (v !== undefined && form !== undefined && v.announced !== undefined && v.announced !== form.form.name) step.push(formMarkerBlock(v.announced, form))
      // Like the memory hits: only in a step that brings the person's words, not in a tool round.
      if (v !== undefined && v.query !== undefined && config.rails.worldbook) {
        const wb = config.worldbook?.step(agent, v.latestText)
        if (wb !== undefined) step.push(wb)
      }
      if (v !== undefined && v.query !== undefined && config.recall.enabled) {
        v.hits ??= await recallFor(ctx, v.query, config.recall.limit)
        if (v.hits.length > 0) step.push(recallVoiceBlock(v.hits, config.recall, ctx.get('cyreneMemory')?.memoryBlock().ids ?? []))
      }
      // The whale row's reflex instruction (≤ 200, its own pre-step) reaches the model beside ours in a Cyrene preset: its room is kept free.
      const pass = voicePass([...blocks, ...step], VOICE_TOTAL - (ctx.get('whalePersona') === undefined ? 0 : REFLEX_MAX_CHARS))
      ctx.get('cyreneMemory')?.noteVoice(noteOf(pass, problems))
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

/** `{{user_nickname}}` and rail 120: the person's setting, then whale-persona's userName, then the row default. */
export function nicknameOf(ctx: Context, fallback: string): string {
  try {
    return ctx.get('cyreneMemory')?.nickname() ?? ctx.get('whalePersona')?.userName() ?? fallback
  } catch {
    return fallback
  }
}

/** The composed memory text (unframed), '' when there is none or it cannot be read. */
export function memoryText(ctx: Context): string {
  try {
    return ctx.get('cyreneMemory')?.memoryBlock().text ?? ''
  } catch {
    return ''
  }
}

async function recallFor(ctx: Context, query: string, limit: number): Promise<RecalledEntry[]> {
  try {
    return (await ctx.get('cyreneMemory')?.recall(query, limit)) ?? []
  } catch {
    return []
  }
}

type Assembly = { contexts: { name: string; text: string }[]; variables: Record<string, string | undefined> }

/** The pass's texts written into the assembly: rails by context name, the memory variable by name. */
function applyPass<A extends Assembly>(assembly: A, pass: VoicePass): A {
  const byContext = new Map<string, string>()
  let memory: string | undefined
  for (const b of pass.blocks) {
    if (b.id === 'var:cyrene_memory') memory = b.text
    const rail = RAIL_CONTEXTS[b.id as keyof typeof RAIL_CONTEXTS]
    if (rail !== undefined) byContext.set(rail.name, b.text)
  }
  return {
    ...assembly,
    contexts: assembly.contexts.map((c) => (byContext.has(c.name) ? { ...c, text: byContext.get(c.name)! } : c)),
    variables: memory === undefined ? assembly.variables : { ...assembly.variables, cyrene_memory: memory },
  }
}

function noteOf(pass: VoicePass, problems: string[]) {
  return {
    total: pass.total,
    budget: pass.budget,
    blocks: pass.blocks.map((b) => ({ id: b.id, chars: b.chars, cut: b.full - b.chars, ...(b.why === undefined ? {} : { why: b.why }) })),
    problems: [...new Set(problems)],
  }
}
