/**
 * What the benches' synthetic stores are made of, in one place: a seeded
 * generator (the same data every run), diary-like Chinese sentences from a word
 * list, and the day files a store of N entries is written as.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { dayFileRel } from '../memory/paths.ts'
import { newId, serializeEntry } from '../memory/format.ts'

/** mulberry32: small, seeded, good enough for test data. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** 6–19 words of `words`, half of them followed by a word of `glue`, ended by 。 */
export function chineseSentence(random: () => number, words: readonly string[], glue: readonly string[]): string {
  const count = 6 + Math.floor(random() * 14)
  let text = ''
  for (let i = 0; i < count; i++) {
    text += words[Math.floor(random() * words.length)]!
    if (random() < 0.5) text += glue[Math.floor(random() * glue.length)]!
  }
  return `${text}。`
}

/**
 * Writes `count` model entries into day files under `root`, `perDay` a day from `start` on, one
 * second apart within a day; `textOf(n)` gives entry n's text. Returns the number of day files.
 */
export async function writeDayEntries(root: string, opts: { count: number; perDay: number; start: number; textOf: (n: number) => string }): Promise<number> {
  let made = 0
  let files = 0
  for (let d = 0; made < opts.count; d++) {
    const day = new Date(opts.start + d * 86_400_000)
    const parts: string[] = []
    for (let k = 0; k < opts.perDay && made < opts.count; k++, made++) {
      const meta = {
        id: newId(new Date(day.getTime() + k * 1000)),
        kind: 'fact',
        axis: '智',
        reason: '基准',
        at: day.toISOString(),
        by: 'model' as const,
        gate: 'day' as const,
      }
      parts.push(serializeEntry({ text: opts.textOf(made), meta }))
    }
    const file = join(root, dayFileRel(day.toISOString().slice(0, 10)))
    await mkdir(dirname(file), { recursive: true, mode: 0o700 })
    await writeFile(file, parts.join('\n'), { mode: 0o600 })
    files++
  }
  return files
}
