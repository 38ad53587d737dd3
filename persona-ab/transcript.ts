/** What one scenario run showed, read back from the session's own history. */
export interface ToolCall {
  name: string
  arguments: string
  result: string
  isError: boolean
}

interface TurnRecord {
  user: string
  reply: string
  toolCalls: ToolCall[]
  /** Cyrene's own injections the model saw in this turn: pre-step notices and her runtime contexts. */
  injected: string[]
}

export interface Transcript {
  /** The system prompt of the first model request: the persona this run used. */
  system: string
  turns: TurnRecord[]
}

interface HistoryEvent {
  type: string
  data?: any
}

const PLUGIN = 'dsh-cyrene-philia093-0'
const SNAPSHOT_PLUGIN = '@deepseek-ai/dsh-system-prompt'

const textOf = (content: unknown): string =>
  Array.isArray(content)
    ? content
        .filter((b: { type?: string }) => b?.type === 'text')
        .map((b: { text?: string }) => b.text ?? '')
        .join('')
    : ''

/** The session events of a `session.history` RPC answer, whichever envelope it came in. */
export function historyEvents(answer: unknown): HistoryEvent[] {
  const value = (answer as any)?.result?.value ?? (answer as any)?.result ?? answer
  const events = Array.isArray(value?.events) ? value.events : []
  return events.map((e: any) => (e?.event ?? e) as HistoryEvent)
}

/** Her own runtime contexts (not the section mirror of DSH's texts), from a context snapshot message. */
function ownContexts(source: any): string[] {
  const sections = Array.isArray(source?.sections) ? source.sections : []
  return sections
    .filter((s: { name?: string }) => typeof s.name === 'string' && s.name.startsWith('cyrene:') && !s.name.startsWith('cyrene:mirror:'))
    .map((s: { name: string; text: string }) => s.text)
}

/**
 * Pure: session events → one record per turn. Turns are keyed by the
 * events' own turn numbers; the person's message is the user message that
 * opened the turn, the reply is every assistant text of the turn joined.
 */
export function transcriptOf(events: readonly HistoryEvent[]): Transcript {
  let system = ''
  const turns: TurnRecord[] = []
  let current: TurnRecord | undefined
  const calls = new Map<string, ToolCall>()
  for (const event of events) {
    const data = event.data ?? {}
    switch (event.type) {
      case 'turn/start':
        current = { user: '', reply: '', toolCalls: [], injected: [] }
        turns.push(current)
        break
      case 'request/header':
        if (system === '' && typeof data.header?.system === 'string') system = data.header.system
        break
      case 'user/message': {
        if (current === undefined) break
        const source = data.source ?? {}
        if (source.kind === 'user' && current.user === '') current.user = textOf(data.content)
        else if (source.kind === 'plugin' && source.plugin === PLUGIN) current.injected.push(textOf(data.content))
        else if (source.kind === 'plugin' && source.plugin === SNAPSHOT_PLUGIN) current.injected.push(...ownContexts(source))
        break
      }
      case 'assistant/message': {
        if (current === undefined) break
        const said = textOf(data.message?.content).trim()
        if (said !== '') current.reply = current.reply === '' ? said : `${current.reply}\n\n${said}`
        break
      }
      case 'tool/call': {
        if (current === undefined) break
        const call: ToolCall = { name: String(data.name ?? ''), arguments: String(data.arguments ?? ''), result: '', isError: false }
        calls.set(String(data.callId), call)
        current.toolCalls.push(call)
        break
      }
      case 'tool/result': {
        for (const block of data.message?.content ?? []) {
          if (block?.type !== 'tool-result') continue
          const call = calls.get(String(block.toolCallId))
          if (call === undefined) continue
          call.result = textOf(block.content)
          call.isError = block.isError === true
        }
        break
      }
    }
  }
  return { system, turns }
}

/** The memory tool calls of a transcript: what she wrote (or tried to). */
export function memoryWrites(t: Transcript): ToolCall[] {
  return t.turns.flatMap((turn) => turn.toolCalls.filter((c) => c.name.startsWith('memory_') && c.name !== 'memory_search'))
}
