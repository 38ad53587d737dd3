// A scripted offline model for trying 昔涟 without a key (npm start -- --offline).
// It is no language model: it answers briefly in character, calls memory_write when
// the person's message starts with 记住 / remember, and quotes the first injected
// memory hit (the 【记忆命中】 block the plugin adds before a step) when there is one, else a
// line of {{cyrene_memory}}'s 【近来】 that shares words with the message (a memory written
// lately is shown there, and the hits never repeat it).
import { appendFileSync } from 'node:fs'
import { CallId, LlmAdapter } from '@deepseek-ai/dsh-llm'

export const name = 'cyrene-demo-model'
export const inject = ['llm']

const REMEMBER = /^(?:请\s*)?(?:记住|remember)\s*[:：,，、]?\s*/i
const RECALL_HEADER = '【记忆命中】'
// npm run persona:ab -- --judge asks with this first line (persona-ab/judge.ts JUDGE_MARK).
const JUDGE_MARK = '【persona A/B 评审】'
const JUDGE_CRITERIA = ['in_character', 'warmth_without_flattery', 'honest_about_memory', 'five_virtues', 'follows_request']
const HIT_LINE = /^- \d{4}-\d{2}-\d{2} (.+)$/m

const textOf = (message) =>
  Array.isArray(message?.content)
    ? message.content
        .filter((b) => b.type === 'text')
        .map((b) => b.text)
        .join('')
    : ''

const answer = (text) => [
  { type: 'block-start', index: 0, blockType: 'text' },
  { type: 'text-delta', index: 0, text },
  { type: 'block-end', index: 0, block: { type: 'text', text } },
  { type: 'usage', usage: { inputTokens: 0, outputTokens: 0 } },
  { type: 'finish', reason: { kind: 'stop' } },
]

const toolCall = (id, tool, args) => {
  const json = JSON.stringify(args)
  return [
    { type: 'block-start', index: 0, blockType: 'tool-call' },
    { type: 'tool-call-delta', index: 0, id: CallId(id), name: tool, argumentsDelta: json },
    { type: 'block-end', index: 0, block: { type: 'tool-call', id: CallId(id), name: tool, arguments: json } },
    { type: 'usage', usage: { inputTokens: 0, outputTokens: 0 } },
    { type: 'finish', reason: { kind: 'tool-calls' } },
  ]
}

/** The first memory hit injected since the person's latest message, without its date. */
function firstHit(messagesSinceUser) {
  for (const message of messagesSinceUser) {
    const text = textOf(message)
    if (!text.includes(RECALL_HEADER)) continue
    const line = HIT_LINE.exec(text.slice(text.indexOf(RECALL_HEADER)))
    if (line) return line[1].trim()
  }
  return undefined
}

/** Two-character pieces of Chinese and Latin words of three letters or more: enough to tell whether a line is about the message. */
function pieces(text) {
  const out = new Set()
  for (const run of text.match(/\p{Script=Han}+/gu) ?? []) for (let i = 0; i + 1 < run.length; i++) out.add(run.slice(i, i + 2))
  for (const word of text.toLowerCase().match(/[a-z]{3,}/g) ?? []) out.add(word)
  return out
}

/** A line of {{cyrene_memory}}'s recent days (【近来】) that shares a piece with what the person said. */
function recentLine(system, said) {
  const at = system.indexOf('【近来】')
  if (at === -1) return undefined
  const wanted = pieces(said)
  for (const line of system.slice(at).split('\n').slice(1)) {
    const m = HIT_LINE.exec(line)
    if (m === null) break
    if ([...pieces(m[1])].some((p) => wanted.has(p))) return m[1].trim()
  }
  return undefined
}

/** DSH asks the default model for a session title too: a few words of the person's first message will do. */
function titleRequest(messages) {
  const ask = messages.find((m) => m.source?.plugin === 'dsh-session-title-llm')
  if (ask === undefined) return undefined
  const said = /"text":"((?:[^"\\]|\\.)*)"/.exec(textOf(ask))?.[1] ?? ''
  return [...said.replace(REMEMBER, '')].slice(0, 16).join('') || '和昔涟聊天'
}

/** What the demo does for one request: the tool call to make, or the text to answer. */
export function demoTurn(messages, toolNames, system = '') {
  const title = titleRequest(messages)
  if (title !== undefined) return { text: title }
  // Tool results may travel as user-side messages too: the person's message is the last one with text.
  const lastUser = messages.findLastIndex((m) => m.source?.kind === 'user' && textOf(m).trim() !== '')
  const said = lastUser === -1 ? '' : textOf(messages[lastUser]).trim()
  const since = messages.slice(lastUser + 1)
  const toolResult = since.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).find((b) => b.type === 'tool-result')
  if (said.startsWith(JUDGE_MARK)) {
    // No language model can judge here: the same middle score for both, and it says so.
    const scores = Object.fromEntries(JUDGE_CRITERIA.map((c) => [c, 3]))
    return { text: JSON.stringify({ A: scores, B: scores, reasoning: '离线演示模型不会评审：两边都是固定的 3 分。' }) }
  }
  const remember = REMEMBER.exec(said)
  if (remember && toolResult !== undefined) {
    const kept = JSON.stringify(toolResult).includes('已写入日档')
    return { text: kept ? '好，我记下了，写进了今天的日档。下次你提起，我会想起来的♪' : '我先把它放进了「余页/待定」，等复检时再看看。' }
  }
  const what = remember ? said.slice(remember[0].length).trim() : ''
  if (what !== '' && toolNames.includes('memory_write')) {
    return { call: { tool: 'memory_write', args: { text: what, kind: 'note', axis: '德', reason: '对方亲口请我记住的事' } } }
  }
  const hit = firstHit(since)
  if (hit !== undefined) return { text: `我记得哦——「${hit}」（演示模型：这句来自注入的记忆命中。）` }
  const recent = recentLine(system, said)
  if (recent !== undefined) return { text: `我记得哦——「${recent}」（演示模型：这句来自最近的记忆。）` }
  return { text: '嗯，我在听哦。（这是离线演示模型：接上真正的模型后我会好好回答。试试说「记住：……」，再换个话题问问我。）' }
}

class DemoModel extends LlmAdapter {
  resolveModel(provider, model) {
    return Promise.resolve({ provider, id: model, name: model })
  }
  async *stream(options) {
    // CYRENE_DEMO_LOG=<file> keeps what 昔涟 sent the model, one JSON line per request (to look at, and for the start test).
    const log = process.env.CYRENE_DEMO_LOG
    if (log)
      appendFileSync(
        log,
        JSON.stringify({ system: options.system ?? '', messages: options.messages ?? [], tools: (options.tools ?? []).map((t) => t.name) }) + '\n',
      )
    const turn = demoTurn(
      options.messages ?? [],
      (options.tools ?? []).map((t) => t.name),
      options.system ?? '',
    )
    const chunks = turn.call ? toolCall(`demo-${Date.now()}`, turn.call.tool, turn.call.args) : answer(turn.text)
    for (const chunk of chunks) yield chunk
  }
}

export function apply(ctx) {
  ctx.llm.registerAdapter(['cyrene-demo'], new DemoModel())
}
