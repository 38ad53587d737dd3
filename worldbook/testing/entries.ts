import type { WorldEntry } from '../entry.ts'

/** A keyword entry named `name` (its key is its name), for tests; `over` changes any field. */
export function entry(name: string, over: Partial<WorldEntry> = {}): WorldEntry {
  return {
    name,
    title: name,
    keys: [name],
    secondaryKeys: [],
    logic: 'and-any',
    constant: false,
    priority: 100,
    enabled: true,
    body: `${name} 的正文`,
    source: 'starter',
    file: `/s/${name}.md`,
    ...over,
  }
}
