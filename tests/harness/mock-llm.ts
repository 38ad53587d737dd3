import { CallId, LlmAdapter } from '@deepseek-ai/dsh-llm'

/** What the model was sent on one request. */
export interface SeenRequest {
  system: string
  messages: { role: string; source?: unknown; content: unknown }[]
  tools: { name: string }[]
}

type Chunk = Record<string, unknown>
type Reply = { text: string } | { tool: string; args: Record<string, unknown>; id?: string }
/** Decides the next reply from what the model has been sent so far. */
export type Script = (request: SeenRequest, index: number) => Reply

function textChunks(text: string): Chunk[] {
  return [
    { type: 'block-start', index: 0, blockType: 'text' },
    { type: 'text-delta', index: 0, text },
    { type: 'block-end', index: 0, block: { type: 'text', text } },
    { type: 'usage', usage: { inputTokens: 10, outputTokens: 3 } },
    { type: 'finish', reason: { kind: 'stop' } },
  ]
}

function toolChunks(id: string, name: string, args: Record<string, unknown>): Chunk[] {
  const json = JSON.stringify(args)
  return [
    { type: 'block-start', index: 0, blockType: 'tool-call' },
    { type: 'tool-call-delta', index: 0, id: CallId(id), name, argumentsDelta: json },
    { type: 'block-end', index: 0, block: { type: 'tool-call', id: CallId(id), name, arguments: json } },
    { type: 'usage', usage: { inputTokens: 10, outputTokens: 5 } },
    { type: 'finish', reason: { kind: 'tool-calls' } },
  ]
}

/** An offline LLM provider driven by a script; records every request. */
export class MockLlm extends LlmAdapter {
  readonly requests: SeenRequest[] = []
  script: Script

  constructor(script: Script = () => ({ text: 'ok' })) {
    super()
    this.script = script
  }

  override resolveModel(provider: string, model: string) {
    return Promise.resolve({ provider, id: model, name: model })
  }

  // The adapter contract's option and chunk types are wide; the mock reads only what it records.
  override async *stream(options: any): AsyncGenerator<any> {
    const seen: SeenRequest = { system: options.system ?? '', messages: options.messages ?? [], tools: options.tools ?? [] }
    this.requests.push(seen)
    const reply = this.script(seen, this.requests.length - 1)
    const chunks = 'text' in reply ? textChunks(reply.text) : toolChunks(reply.id ?? `call-${this.requests.length}`, reply.tool, reply.args)
    for (const chunk of chunks) yield chunk
  }
}
