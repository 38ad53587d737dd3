/** The text the person typed in this step's new messages (plugin notices left out). */
export function latestUserText(messages: readonly { source?: { kind?: string }; content?: unknown }[]): string {
  const texts: string[] = []
  for (const m of messages) {
    if (m.source?.kind !== 'user' || !Array.isArray(m.content)) continue
    for (const block of m.content as { type?: string; text?: unknown }[]) if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text)
  }
  return texts.join('\n').trim()
}
