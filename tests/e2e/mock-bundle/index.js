// Offline LLM for the end-to-end test: answers with text, records what it was sent.
import { appendFileSync } from 'node:fs'
import { LlmAdapter } from '@deepseek-ai/dsh-llm'

export const name = 'cyrene-e2e-mock-llm'
export const inject = ['llm']

const reply = (text) => [
  { type: 'block-start', index: 0, blockType: 'text' },
  { type: 'text-delta', index: 0, text },
  { type: 'block-end', index: 0, block: { type: 'text', text } },
  { type: 'usage', usage: { inputTokens: 10, outputTokens: 3 } },
  { type: 'finish', reason: { kind: 'stop' } },
]

class RecordingMock extends LlmAdapter {
  resolveModel(provider, model) { return Promise.resolve({ provider, id: model, name: model }) }
  async * stream(options) {
    const log = process.env.CYRENE_E2E_LOG
    if (log) appendFileSync(log, JSON.stringify({ system: options.system ?? '', messages: options.messages ?? [], tools: (options.tools ?? []).map((t) => t.name), toolText: JSON.stringify(options.tools ?? []) }) + '\n')
    for (const chunk of reply('mock: 收到。')) yield chunk
  }
}

export function apply(ctx) {
  ctx.llm.registerAdapter(['mock'], new RecordingMock())
}
