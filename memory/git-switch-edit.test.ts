import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { openCallWindow } from '../durable/host-writes.ts'
import { walkFiles } from './fsio.ts'
import { CallRunningError, syncGit } from './git-sync.ts'
import { idsOf, joinedPair, writeMany, type JoinedPair } from './testing/git-pair.ts'

/**
 * The store is not locked against an editor: a day file the person saves after the sync's commit and
 * before its switch (a fetch can take seconds) is neither version the switch knows. Both machines
 * wrote on the same day, so the switch rewrites that very file (decision 288).
 */
const ROOT = 'cyrene-philia093-0'

async function fileHolding(home: string, text: string): Promise<string> {
  const root = join(home, ROOT)
  for (const rel of await walkFiles(root)) if (rel.endsWith('.md') && readFileSync(join(root, rel), 'utf8').includes(text)) return join(root, rel)
  throw new Error(`no file holds ${text}`)
}

/** What a person does in an editor: one word of one entry changed, the file saved whole. */
function editByHand(file: string): void {
  const text = readFileSync(file, 'utf8')
  expect(text).toContain('B 写下的第 0 条：今天的事情')
  writeFileSync(file, text.replace('B 写下的第 0 条：今天的事情', 'B 写下的第 0 条：今天的事情，手改过'))
}

async function bothWroteOnOneDay(): Promise<{ pair: JoinedPair; merged: Set<string> }> {
  const pair = await joinedPair(2, 1)
  await writeMany(pair.storeA, 2, 1, 'A2')
  expect((await syncGit(pair.storeA)).ok).toBe(true)
  await writeMany(pair.storeB, 2, 1, 'B')
  const merged = new Set([...(await idsOf(pair.storeA)), ...(await idsOf(pair.storeB))])
  return { pair, merged }
}

describe('a hand edit saved while a git sync runs', () => {
  it('is merged with what came from the other machine, sent with it, and reaches the other machine', { timeout: 120_000 }, async () => {
    const { pair, merged } = await bothWroteOnOneDay()
    try {
      const file = await fileHolding(pair.b, 'B 写下的第 0 条')
      let edited = false
      const report = await syncGit(pair.storeB, {
        onPhase: (p) => {
          if (p === 'fetched' && !edited) {
            editByHand(file)
            edited = true
          }
        },
      })
      expect(edited).toBe(true)
      expect(report.ok).toBe(true)
      expect(report.merge).toBe('merged')
      expect(report.edited).toEqual([{ path: file.slice(join(pair.b, ROOT).length + 1), how: 'merged' }])
      expect(report.message).toContain('saved here during the sync kept')
      expect(readFileSync(file, 'utf8')).toContain('手改过')
      expect(new Set(await idsOf(pair.storeB))).toEqual(merged)
      // Committed on top of the merge and pushed: the other machine gets the edit with its next sync.
      expect((await syncGit(pair.storeA)).ok).toBe(true)
      expect(readFileSync(await fileHolding(pair.a, 'B 写下的第 0 条'), 'utf8')).toContain('手改过')
      expect(new Set(await idsOf(pair.storeA))).toEqual(merged)
      const audit = await pair.storeB.auditLog()
      expect(audit.some((r) => r.op === 'git-edit-kept' && r.how === 'merged')).toBe(true)
    } finally {
      await pair.storeA.close()
      await pair.storeB.close()
      await pair.cleanup()
    }
  })

  it('survives the replay of a switch cut off after its journal, when the edit came in between', { timeout: 120_000 }, async () => {
    const { pair, merged } = await bothWroteOnOneDay()
    try {
      const file = await fileHolding(pair.b, 'B 写下的第 0 条')
      // The process dies right after the journal is durable: no file of the switch is written yet.
      await expect(
        syncGit(pair.storeB, {
          onPhase: (p) => {
            if (p === 'journal') throw new Error('cut off here')
          },
        }),
      ).rejects.toThrow('cut off here')
      editByHand(file)
      // The next holder of the write lock finishes the switch (here: the next sync).
      const again = await syncGit(pair.storeB)
      expect(again.ok).toBe(true)
      expect(readFileSync(file, 'utf8')).toContain('手改过')
      expect(new Set(await idsOf(pair.storeB))).toEqual(merged)
      expect((await syncGit(pair.storeA)).ok).toBe(true)
      expect(readFileSync(await fileHolding(pair.a, 'B 写下的第 0 条'), 'utf8')).toContain('手改过')
    } finally {
      await pair.storeA.close()
      await pair.storeB.close()
      await pair.cleanup()
    }
  })

  it('is kept as it is when the other machine removed that file', { timeout: 120_000 }, async () => {
    const pair = await joinedPair(2, 1)
    try {
      const file = await fileHolding(pair.a, 'A 写下的第 0 条')
      const rel = file.slice(join(pair.a, ROOT).length + 1)
      // Machine A removes the day file by hand and syncs; B edits its copy while its sync takes A's removal.
      const { rmSync } = await import('node:fs')
      rmSync(file)
      expect((await syncGit(pair.storeA)).ok).toBe(true)
      const mine = join(pair.b, ROOT, rel)
      const report = await syncGit(pair.storeB, {
        onPhase: (p) => {
          if (p === 'fetched') writeFileSync(mine, readFileSync(mine, 'utf8').replace('A 写下的第 0 条：今天的事情', 'A 写下的第 0 条：今天的事情，B 手改过'))
        },
      })
      expect(report.ok).toBe(true)
      expect(report.edited).toEqual([{ path: rel, how: 'kept' }])
      expect(readFileSync(mine, 'utf8')).toContain('B 手改过')
    } finally {
      await pair.storeA.close()
      await pair.storeB.close()
      await pair.cleanup()
    }
  })
})

describe('while a tool call of the model may be writing (a store guard window is open)', () => {
  it(
    'a changed file is not merged while a window is open: the switch stops before it, and finishes, merging, after the call',
    { timeout: 120_000 },
    async () => {
      const { pair, merged } = await bothWroteOnOneDay()
      let close: (() => void) | undefined
      try {
        const file = await fileHolding(pair.b, 'B 写下的第 0 条')
        // The person's save lands before the window opens (audit finding 3): it must survive the switch too.
        await expect(
          syncGit(pair.storeB, {
            windowWaitMs: 200,
            onPhase: (p) => {
              if (p === 'committed') editByHand(file)
              if (p === 'fetched' && close === undefined) close = openCallWindow()
            },
          }),
        ).rejects.toThrow(CallRunningError)
        expect(readFileSync(file, 'utf8')).toContain('手改过')
        close!()
        const report = await syncGit(pair.storeB)
        expect(report.ok).toBe(true)
        expect(report.merge).toBe('merged')
        expect(report.changed.length).toBeGreaterThan(0)
        expect(readFileSync(file, 'utf8')).toContain('手改过')
        expect(new Set(await idsOf(pair.storeB))).toEqual(merged)
        expect((await syncGit(pair.storeA)).ok).toBe(true)
        expect(readFileSync(await fileHolding(pair.a, 'B 写下的第 0 条'), 'utf8')).toContain('手改过')
      } finally {
        close?.()
        await pair.storeA.close()
        await pair.storeB.close()
        await pair.cleanup()
      }
    },
  )

  it('a sync does not commit until the window closes, and says so when it stays open', { timeout: 120_000 }, async () => {
    const { pair } = await bothWroteOnOneDay()
    const close = openCallWindow()
    try {
      const root = join(pair.b, ROOT)
      const commits = (): string => execFileSync('git', ['-C', root, 'rev-list', '--count', 'HEAD'], { encoding: 'utf8' }).trim()
      const before = commits()
      const started = Date.now()
      await expect(syncGit(pair.storeB, { windowWaitMs: 300 })).rejects.toThrow(CallRunningError)
      // The whole wait, not a count of looks (audit finding 7).
      expect(Date.now() - started).toBeGreaterThanOrEqual(290)
      expect(commits()).toBe(before)
      const waiting = syncGit(pair.storeB)
      close()
      const report = await waiting
      expect(report.ok).toBe(true)
      expect(report.committed).toBe(true)
      expect(Number(commits())).toBeGreaterThan(Number(before))
    } finally {
      close()
      await pair.storeA.close()
      await pair.storeB.close()
      await pair.cleanup()
    }
  })
})

describe('the switch, as an outside audit tried it (decision 288)', () => {
  it('a replay does not bring back what the person removed from a file the cut-off switch had already written', { timeout: 120_000 }, async () => {
    const { pair } = await bothWroteOnOneDay()
    try {
      const file = await fileHolding(pair.b, 'B 写下的第 0 条')
      await expect(
        syncGit(pair.storeB, {
          onPhase: (p) => {
            if (p === 'file' && readFileSync(file, 'utf8').includes('A2 写下的第 0 条')) throw new Error('cut off here')
          },
        }),
      ).rejects.toThrow('cut off here')
      // The day file now holds A's entries too; the person removes one of them by hand.
      const text = readFileSync(file, 'utf8')
      expect(text).toContain('A2 写下的第 0 条')
      const blocks = text.split(/\n\n+/)
      const fromA = blocks.findIndex((b) => b.includes('A2 写下的第 0 条'))
      const id = /"id":"([^"]+)"/.exec(blocks[fromA]!)![1]!
      blocks.splice(fromA, 1)
      writeFileSync(file, blocks.join('\n\n'))
      expect((await syncGit(pair.storeB)).ok).toBe(true)
      expect(await idsOf(pair.storeB)).not.toContain(id)
      expect(readFileSync(file, 'utf8')).not.toContain('A2 写下的第 0 条')
    } finally {
      await pair.storeA.close()
      await pair.storeB.close()
      await pair.cleanup()
    }
  })

  it('a save that makes the file non-UTF-8 keeps the other side as a conflict with its bytes, and the report counts it', { timeout: 120_000 }, async () => {
    const { pair } = await bothWroteOnOneDay()
    try {
      const file = await fileHolding(pair.b, 'B 写下的第 0 条')
      const gbk = Buffer.from('c4e3bac30a', 'hex')
      const report = await syncGit(pair.storeB, {
        onPhase: (p) => {
          if (p === 'fetched') writeFileSync(file, Buffer.concat([readFileSync(file), gbk]))
        },
      })
      expect(report.ok).toBe(true)
      expect(report.newConflicts).toBe(1)
      const conflictDir = join(pair.b, ROOT, '元', '冲突')
      const records = (await walkFiles(conflictDir)).map((f) => JSON.parse(readFileSync(join(conflictDir, f), 'utf8')) as { encoding?: string; theirs: string })
      expect(records).toHaveLength(1)
      expect(records[0]!.encoding).toBe('base64')
      expect(Buffer.from(records[0]!.theirs, 'base64').toString('utf8')).toContain('A2 写下的第 0 条')
    } finally {
      await pair.storeA.close()
      await pair.storeB.close()
      await pair.cleanup()
    }
  })
})
