import { promises as fs } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { walkFiles } from './fsio.ts'
import { syncGit } from './git-sync.ts'
import { MemoryStore } from './store.ts'
import { idsOf, joinedPair, writeMany } from './testing/git-pair.ts'

/**
 * The git sync's side folder (`<root>-git/`, beside the store) is outside what the store guard protects:
 * a tool call may leave anything there. What it leaves must never make the person's next sync (or the
 * host's) remove or write a file of the store (decision 306).
 */
let dir: string | undefined
afterEach(async () => {
  if (dir !== undefined) await fs.rm(dir, { recursive: true, force: true })
  dir = undefined
})

async function storeWithMemories(): Promise<{ store: MemoryStore; root: string; files: Map<string, string> }> {
  dir = await fs.mkdtemp(join(tmpdir(), 'cyrene-git-side-'))
  const store = await MemoryStore.open({ env: { DSH_HOME: dir } })
  await store.write({ text: '她最爱下雪的早晨。', kind: 'preference', axis: '美', reason: '她说过', at: '2026-03-01T10:00:00' }, { by: 'person' })
  await store.write({ text: '她养了一只叫团子的猫。', kind: 'fact', axis: '智', reason: '她说过', at: '2026-03-02T10:00:00' }, { by: 'person' })
  const root = store.root
  const files = new Map<string, string>()
  for (const rel of await walkFiles(root)) files.set(rel, await fs.readFile(join(root, rel), 'utf8'))
  expect([...files.keys()].some((rel) => rel.startsWith('岁月涟漪/'))).toBe(true)
  return { store, root, files }
}

async function expectKept(root: string, files: Map<string, string>): Promise<void> {
  for (const [rel, text] of files) expect(await fs.readFile(join(root, rel), 'utf8').catch(() => `(gone) ${rel}`)).toBe(text)
}

it('a link left at <root>-git/no-hooks pointing at the store: the sync removes nothing through it (it emptied the store)', async () => {
  const { store, root, files } = await storeWithMemories()
  await fs.mkdir(`${root}-git`, { recursive: true })
  await fs.symlink(root, `${root}-git/no-hooks`)
  const report = await syncGit(store)
  expect(report.ok).toBe(true)
  await expectKept(root, files)
})

it('<root>-git itself a link to a folder whose no-hooks is a link to the anchors: nothing of the store is removed', async () => {
  const { store, root, files } = await storeWithMemories()
  await fs.mkdir(join(dir!, 'elsewhere'))
  await fs.symlink(join(root, '岁月涟漪'), join(dir!, 'elsewhere', 'no-hooks'))
  await fs.symlink(join(dir!, 'elsewhere'), `${root}-git`)
  const report = await syncGit(store)
  expect(report.ok).toBe(true)
  await expectKept(root, files)
})

it('a hook left where the sync used to look for hooks never runs', async () => {
  const { store, root } = await storeWithMemories()
  const ran = join(dir!, 'hook-ran')
  await fs.mkdir(`${root}-git/no-hooks`, { recursive: true })
  for (const hook of ['pre-commit', 'post-commit', 'reference-transaction', 'post-index-change']) {
    await fs.writeFile(join(`${root}-git/no-hooks`, hook), `#!/bin/sh\necho ${hook} >> '${ran}'\n`, { mode: 0o755 })
  }
  const report = await syncGit(store)
  expect(report.ok).toBe(true)
  expect(report.committed).toBe(true)
  await expect(fs.readFile(ran, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' })
})

describe("git's own files in the person's home, which a tool call may write", () => {
  it('a global ignore file (~/.config/git/ignore) matching every memory deletes nothing on the other machine', { timeout: 120_000 }, async () => {
    const pair = await joinedPair(4, 2)
    try {
      const before = new Set(await idsOf(pair.storeB))
      expect(before.size).toBe(4)
      const home = join(pair.dir, 'home-a')
      await fs.mkdir(join(home, '.config', 'git'), { recursive: true })
      await fs.writeFile(join(home, '.config', 'git', 'ignore'), '*.md\n')
      await writeMany(pair.storeA, 1, 1, 'A3')
      const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config') }
      expect((await syncGit(pair.storeA, { env })).ok).toBe(true)
      expect((await syncGit(pair.storeB)).ok).toBe(true)
      const after = new Set(await idsOf(pair.storeB))
      for (const id of before) expect(after.has(id), id).toBe(true)
      expect(after.size).toBe(5)
    } finally {
      await pair.cleanup()
    }
  })

  it('a global attributes file (~/.config/git/attributes) changes no byte of what the other machine receives', { timeout: 120_000 }, async () => {
    const pair = await joinedPair(2, 1)
    try {
      const home = join(pair.dir, 'home-a')
      await fs.mkdir(join(home, '.config', 'git'), { recursive: true })
      await fs.writeFile(join(home, '.config', 'git', 'attributes'), '*.md working-tree-encoding=UTF-16LE text eol=crlf\n')
      await writeMany(pair.storeA, 1, 1, 'A3')
      const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config') }
      expect((await syncGit(pair.storeA, { env })).ok).toBe(true)
      expect((await syncGit(pair.storeB)).ok).toBe(true)
      for (const rel of (await walkFiles(pair.storeA.root)).filter((r) => r.endsWith('.md')))
        expect(await fs.readFile(join(pair.storeB.root, rel), 'utf8').catch(() => `(gone) ${rel}`)).toBe(await fs.readFile(join(pair.storeA.root, rel), 'utf8'))
    } finally {
      await pair.cleanup()
    }
  })
})
