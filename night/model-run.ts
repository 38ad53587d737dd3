import {
  createAssistantMessage,
  createToolResultMessage,
  createUserMessage,
  type ContentBlock,
  type GenerateOptions,
  type Message,
  type StreamChunk,
  type ToolCallBlock,
} from '@deepseek-ai/dsh-llm'

/**
 * The dream's model run: a hand-built request through DSH's `llm` service
 * (the way DSH's own session titles and compaction call a model), not a turn
 * of any agent — so it never appears in a person's chat and no session log
 * is written for it. Its tools exist only here: they are handed to the model
 * in this request and executed by the dream itself, never registered with
 * `ctx.tools`, so no chat step can see or call them.
 */
export interface DreamTool {
  name: string
  description: string
  parameters: Record<string, unknown>
  /** Returns what the model reads back; throwing is an error result the model can act on. */
  run(args: Record<string, unknown>): Promise<string>
}

export type Stream = (options: GenerateOptions) => AsyncIterable<StreamChunk>

export interface DreamRunInput {
  route: { provider: string; model: string }
  system: string
  brief: string
  tools: readonly DreamTool[]
  maxRounds: number
  signal: AbortSignal
}

export interface DreamRunResult {
  rounds: number
  toolCalls: number
  /** Text the model said outside tools (kept for the doctor, never written as the journal). */
  said: string
}

async function oneCall(stream: Stream, options: GenerateOptions): Promise<{ blocks: ContentBlock[]; failure?: string }> {
  const blocks: ContentBlock[] = []
  for await (const chunk of stream(options)) {
    if (chunk.type === 'block-end') blocks.push(chunk.block)
    if (chunk.type === 'finish' && (chunk.reason.kind === 'error' || chunk.reason.kind === 'aborted')) {
      const failure = (chunk.reason as { failure?: { message?: string } }).failure?.message ?? chunk.reason.kind
      return { blocks, failure }
    }
  }
  return { blocks }
}

async function runTool(tools: readonly DreamTool[], call: ToolCallBlock): Promise<{ text: string; isError: boolean }> {
  const tool = tools.find((t) => t.name === call.name)
  if (tool === undefined) return { text: `no tool ${call.name} in the dream; available: ${tools.map((t) => t.name).join(', ')}`, isError: true }
  let args: Record<string, unknown>
  try {
    const parsed: unknown = JSON.parse(call.arguments === '' ? '{}' : call.arguments)
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('arguments are not a JSON object')
    args = parsed as Record<string, unknown>
  } catch (e) {
    return { text: `bad arguments: ${(e as Error).message}`, isError: true }
  }
  try {
    return { text: await tool.run(args), isError: false }
  } catch (e) {
    return { text: (e as Error).message, isError: true }
  }
}

/** Call the model until it stops calling tools or `maxRounds` is reached. Throws when a call fails. */
export async function runDreamModel(stream: Stream, input: DreamRunInput): Promise<DreamRunResult> {
  const messages: Message[] = [
    createUserMessage({ content: [{ type: 'text', text: input.brief }], source: { kind: 'plugin', plugin: 'cyrene-dream', form: 'notice', summary: '夜梦' } }),
  ]
  const schemas = input.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }))
  const result: DreamRunResult = { rounds: 0, toolCalls: 0, said: '' }
  while (result.rounds < input.maxRounds) {
    input.signal.throwIfAborted()
    result.rounds++
    const { blocks, failure } = await oneCall(stream, { ...input.route, system: input.system, messages: [...messages], tools: schemas, signal: input.signal })
    if (failure !== undefined) throw new Error(`the model call failed: ${failure}`)
    messages.push(createAssistantMessage({ content: blocks, source: { ...input.route } }))
    for (const b of blocks) if (b.type === 'text') result.said += b.text
    const calls = blocks.filter((b): b is ToolCallBlock => b.type === 'tool-call')
    if (calls.length === 0) break
    for (const call of calls) {
      result.toolCalls++
      const r = await runTool(input.tools, call)
      messages.push(createToolResultMessage({ callId: call.id, content: [{ type: 'text', text: r.text }], isError: r.isError }))
    }
  }
  return result
}
