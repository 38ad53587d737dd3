/**
 * What the person said in a session, as DSH keeps it: the text of each `user/message` event whose
 * source is the person (`source.kind: 'user'`), not a plugin's message in the user role (a recall
 * block, a runtime snapshot). The dream and `memory_write` check a quote the model gives as the
 * person's words against these lines (docs/decisions/270, 285).
 */

/** The person's text of one event's data, or undefined when it is not the person's message. */
export function personTextOf(data: unknown): string | undefined {
  const m = data as { source?: { kind?: string }; content?: Array<{ type?: string; text?: string }> } | undefined
  if (m?.source?.kind !== 'user' || !Array.isArray(m.content)) return undefined
  const text = m.content
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text)
    .join('\n')
  return text.trim() === '' ? undefined : text
}

/** An agent as far as its session's events go (DSH's agent; only what is read here). */
export interface AgentWithEvents {
  session?: { events?: ReadonlyArray<{ type?: string; data?: unknown }> }
}

/** Every line the person wrote in this agent's session, oldest first. */
export function personLinesOf(agent: AgentWithEvents | undefined): string[] {
  const out: string[] = []
  for (const e of agent?.session?.events ?? []) {
    if (e.type !== 'user/message') continue
    const text = personTextOf(e.data)
    if (text !== undefined) out.push(text)
  }
  return out
}

/**
 * Does the quote occur word for word in one of the sources? Compared as a person reads it: full- and
 * half-width forms alike (NFKC), runs of white space as one, and the quote's own end punctuation
 * (。！？, .!?) not required. A word of its own, a changed word or a reordered clause is not found.
 */
export function quoteOccurs(quote: string, sources: readonly string[]): boolean {
  const q = asRead(quote).replace(/^[\s"'“”‘’「」『』]+|[\s"'“”‘’「」『』。，、；：！？.,;:!?]+$/gu, '')
  return q !== '' && sources.some((s) => asRead(s).includes(q))
}

const asRead = (text: string): string => text.normalize('NFKC').replace(/\s+/g, ' ').trim()
