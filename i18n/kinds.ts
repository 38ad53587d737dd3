import { tKey, type Lang, type MessageKey } from './index.ts'

/**
 * A day entry's kind as a person reads it (［事实］ / [fact]). The stored
 * value stays the English word (memory/entry.ts KNOWN_KINDS); an unknown kind
 * a person wrote by hand is shown as written.
 */
const KINDS = ['decision', 'lesson', 'rule', 'fact', 'preference', 'event', 'feeling', 'plan', 'person', 'note'] as const

export function kindLabel(kind: string, lang: Lang): string {
  return (KINDS as readonly string[]).includes(kind) ? tKey(`kind.${kind}` as MessageKey, lang) : kind
}
