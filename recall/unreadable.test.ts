import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { promises as fs } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { MemoryStore } from '../memory/index.ts'
import { packageForOthers, requireFreshDist, runModuleAsNobody, type ForOthers } from '../tests/harness/for-others.ts'

/**
 * A month folder this user may not open (mode 0000, a second uid: root ignores modes). A turn's
 * recall goes on with the rest of the store and the doctor names the folder; before, the listing
 * threw and recall had nothing for the whole session. Runs the compiled recall (dist/) in the
 * second uid's own process, its worker thread included.
 */
const repo = fileURLToPath(new URL('../', import.meta.url))
let forOthers: ForOthers
let base: string

/** What the second uid's RunningRecall answers for `query`, with its doctor line. */
function recallAsNobody(root: string, query: string): { hits: string[]; line: { status: string; detail: string } } {
  const door = pathToFileURL(forOthers.at(join(repo, 'dist/recall/index.js'))).href
  return runModuleAsNobody(
    forOthers,
    base,
    'recall-as-nobody.mjs',
    `
    const { RunningRecall, doctorLines } = await import(${JSON.stringify(door)})
    const recall = new RunningRecall()
    recall.start(${JSON.stringify(root)})
    await recall.ready
    const hits = await recall.recall(${JSON.stringify(query)}, 5, Date.parse('2026-03-01T12:00:00Z'))
    const [line] = doctorLines(recall.doctorState(), 'en')
    await recall.close()
    console.log(JSON.stringify({ hits: hits.map((h) => h.text), line }))`,
  )
}

beforeAll(async () => {
  requireFreshDist(['recall'])
  base = await fs.mkdtemp(join(tmpdir(), 'cyrene-unreadable-'))
  await fs.chmod(base, 0o755)
  forOthers = packageForOthers()
})
afterAll(async () => {
  forOthers?.cleanup()
  await fs.rm(base, { recursive: true, force: true })
})

describe('a recall folder this user may not open', () => {
  it('is left out of the turn’s recall, which finds the rest, and the doctor names it with the chmod', async () => {
    const home = join(base, 'home')
    await fs.mkdir(home, { mode: 0o755 })
    const store = await MemoryStore.open({ env: { DSH_HOME: home } })
    await store.write({ text: '我养了一只叫团子的橘猫', axis: '德', reason: '家里的猫', at: '2026-01-10' }, { by: 'person' })
    await store.write({ text: 'I started learning the cello this winter', axis: '美', reason: 'music', at: '2026-02-03' }, { by: 'person' })
    spawnSync('chown', ['-R', '65534:65534', home])
    const january = join(store.root, '岁月涟漪/日档/2026/01')

    const open = recallAsNobody(store.root, 'cello')
    expect(open.hits.join('\n')).toMatch(/cello/)
    expect(open.line, open.line.detail).toMatchObject({ status: 'ok' })

    await fs.chmod(january, 0o000)
    // A fresh start (the cache saved above lists January's file: it must not be trusted for it).
    const shut = recallAsNobody(store.root, 'cello')
    expect(shut.hits.join('\n')).toMatch(/cello/)
    expect(shut.line.status).toBe('warn')
    expect(shut.line.detail).toContain(`1 folder(s) of the store may not be opened by this user`)
    expect(shut.line.detail).toContain(`chmod u+rwx '${january}'`)
    expect(recallAsNobody(store.root, '团子').hits.join('\n')).not.toMatch(/团子/)

    await fs.chmod(january, 0o755)
    const back = recallAsNobody(store.root, '团子')
    expect(back.hits.join('\n')).toMatch(/团子/)
    expect(back.line.status).toBe('ok')
  })
})
