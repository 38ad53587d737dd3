// Offline LLM for the end-to-end test: records what it was sent; answers with
// text, or — when the person says 请记住：… in a Cyrene preset — calls memory_write first
// (请运行：… calls bash with the rest);
// in a dream (its request alone offers memory_dream_journal) it writes the journal once.
import { appendFileSync } from 'node:fs'
import { CallId, LlmAdapter } from '@deepseek-ai/dsh-llm'

export const name = 'cyrene-e2e-mock-llm'
export const inject = ['llm']

const reply = (text) => [
  { type: 'block-start', index: 0, blockType: 'text' },
  { type: 'text-delta', index: 0, text },
  { type: 'block-end', index: 0, block: { type: 'text', text } },
  { type: 'usage', usage: { inputTokens: 10, outputTokens: 3 } },
  { type: 'finish', reason: { kind: 'stop' } },
]

const call = (id, name, args) => {
  const json = JSON.stringify(args)
  return [
    { type: 'block-start', index: 0, blockType: 'tool-call' },
    { type: 'tool-call-delta', index: 0, id: CallId(id), name, argumentsDelta: json },
    { type: 'block-end', index: 0, block: { type: 'tool-call', id: CallId(id), name, arguments: json } },
    { type: 'usage', usage: { inputTokens: 10, outputTokens: 5 } },
    { type: 'finish', reason: { kind: 'tool-calls' } },
  ]
}

const textOf = (message) =>
  Array.isArray(message?.content)
    ? message.content
        .filter((b) => b.type === 'text')
        .map((b) => b.text)
        .join('')
    : ''

class RecordingMock extends LlmAdapter {
  resolveModel(provider, model) {
    return Promise.resolve({ provider, id: model, name: model })
  }
  async *stream(options) {
    const log = process.env.CYRENE_E2E_LOG
    if (log)
      appendFileSync(
        log,
        JSON.stringify({
          system: options.system ?? '',
          messages: options.messages ?? [],
          tools: (options.tools ?? []).map((t) => t.name),
          toolText: JSON.stringify(options.tools ?? []),
        }) + '\n',
      )
    const messages = options.messages ?? []
    const asked = messages
      .filter((m) => m.source?.kind === 'user')
      .map(textOf)
      .reverse()
      .find((t) => t.includes('请记住：'))
    const answered = messages.some((m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'tool-result'))
    const canWrite = (options.tools ?? []).some((t) => t.name === 'memory_write')
    if (asked !== undefined && canWrite && !answered) {
      const text = asked.slice(asked.indexOf('请记住：') + 4).trim()
      for (const chunk of call('write-1', 'memory_write', { text, kind: 'preference', axis: '美', reason: '对方亲口说要记住的偏好' })) yield chunk
      return
    }
    // 请运行：<command> — one bash call, as a model at work runs a build (the store guard's window is open meanwhile).
    const command = messages
      .filter((m) => m.source?.kind === 'user')
      .map(textOf)
      .reverse()
      .find((t) => t.includes('请运行：'))
    if (command !== undefined && (options.tools ?? []).some((t) => t.name === 'bash') && !answered) {
      const line = command.slice(command.indexOf('请运行：') + 4).trim()
      for (const chunk of call('bash-1', 'bash', { command: line, description: 'run what the person asked' })) yield chunk
      return
    }
    const dreaming = (options.tools ?? []).some((t) => t.name === 'memory_dream_journal')
    if (dreaming && !answered) {
      for (const chunk of call('dream-1', 'memory_dream_journal', { text: 'mock 梦志：今晚梦见了大家。' })) yield chunk
      return
    }
    for (const chunk of reply('mock: 收到。')) yield chunk
  }
}

export function apply(ctx) {
  ctx.llm.registerAdapter(['mock'], new RecordingMock())
}
