import { expect, it } from 'vitest'
import { rankBySubstring } from './search.ts'
import type { StoredEntry } from './store.ts'

const e = (id: string, text: string, area: 'day' | 'pending' = 'day'): StoredEntry => ({ id, text, meta: { id }, file: 'f', line: 1, area })

it('matches case-insensitively, newest first, skipping pending unless asked', () => {
  const all = [e('2024', 'Likes Matcha'), e('2025', 'matcha again'), e('2026', 'MATCHA pending', 'pending'), e('2023', 'tea')]
  expect(rankBySubstring(all, 'matcha').map((h) => h.entry.id)).toEqual(['2025', '2024'])
  expect(rankBySubstring(all, 'MATCHA', { includePending: true }).map((h) => h.entry.id)).toEqual(['2026', '2025', '2024'])
  expect(rankBySubstring(all, '  ')).toEqual([])
  expect(rankBySubstring(all, 'a', { limit: 1 })).toHaveLength(1)
  expect(rankBySubstring([e('1', '抹茶抹茶')], '抹茶')[0]!.score).toBe(2)
})
