import { describe, expect, it } from 'vitest'
import { spawn } from 'node:child_process'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { onLines } from '../durable/testing/spawn.ts'
import { syncGit } from './git-sync.ts'
import { idsOf, joinedPair, writeMany } from './testing/git-pair.ts'
import { walkFiles } from './fsio.ts'

const SYNCER = fileURLToPath(new URL('./testing/git-syncer.ts', import.meta.url))

/** Runs git-syncer.ts and SIGKILLs it `delayMs` after it printed `phase` (never, if it finishes first). */
async function killDuring(home: string, phase: string, delayMs: number): Promise<{ killed: boolean; seen: string[] }> {
  const child = spawn(process.execPath, [SYNCER, home], { stdio: ['ignore', 'pipe', 'pipe'] })
  const seen: string[] = []
  let killed = false
  let err = ''
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()))
  onLines(child, (line) => {
    const p = line.startsWith('PHASE ') ? line.slice(6) : line
    seen.push(p)
    if (p === phase && !killed) {
      killed = true
      setTimeout(() => child.kill('SIGKILL'), delayMs)
    }
  })
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  if (code !== 0 && code !== null) throw new Error(`syncer failed (${code}): ${err}`)
  return { killed: code === null, seen }
}

async function noMarkers(root: string): Promise<void> {
  for (const rel of await walkFiles(root)) if (rel.endsWith('.md')) expect(await fs.readFile(join(root, rel), 'utf8')).not.toMatch(/^<<<<<<<|^>>>>>>>/m)
}

describe('a git sync killed with SIGKILL', () => {
  // Each trial kills B's merge at one point (after a phase, plus a random few ms); the last ones at a random time.
  const points: Array<[string, number]> = [
    ['READY', 0],
    ['repo', 0],
    ['committed', 5],
    ['fetched', 0],
    ['staged', 0],
    ['journal', 0],
    ['file', 0],
    ['READY', -1],
  ]
  it('leaves either the old store or the merged one, and the next sync finishes the merge', { timeout: 900_000 }, async () => {
    const outcomes: string[] = []
    for (const [phase, delay] of points) {
      const pair = await joinedPair(8, 4)
      try {
        const [a, b] = [pair.storeA, pair.storeB]
        await writeMany(a, 8, 4, 'A2')
        await syncGit(a)
        await writeMany(b, 8, 4, 'B')
        const before = new Set(await idsOf(b))
        const merged = new Set([...before, ...(await idsOf(a))])
        await b.close()
        const wait = delay < 0 ? Math.floor(Math.random() * 2000) : delay + Math.floor(Math.random() * 10)
        const { killed, seen } = await killDuring(pair.b, phase, wait)
        const after = await pair.open(pair.b) // recovery runs here
        const ids = await idsOf(after)
        expect(new Set(ids).size).toBe(ids.length)
        const set = new Set(ids)
        const same = (x: Set<string>): boolean => x.size === set.size && [...x].every((i) => set.has(i))
        const state = same(before) ? 'old' : same(merged) ? 'merged' : 'mixed'
        outcomes.push(`${phase}+${wait}ms ${killed ? 'killed' : 'finished'} after ${seen.at(-1)}: ${state}`)
        expect(state, outcomes.at(-1)).not.toBe('mixed')
        await noMarkers(pair.b.concat('/cyrene-philia093-0'))
        const again = await syncGit(after)
        expect(again.ok, JSON.stringify(again)).toBe(true)
        expect(new Set(await idsOf(after))).toEqual(merged)
        await after.close()
        await a.close()
      } finally {
        await pair.cleanup()
      }
    }
    // At least the phases inside the merge were really cut off (not every run finished by itself).
    expect(outcomes.filter((o) => o.includes('killed')).length).toBeGreaterThanOrEqual(5)
    console.log(outcomes.join('\n'))
  })
})
