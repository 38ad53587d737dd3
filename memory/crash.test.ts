import { afterEach, beforeEach, expect, it } from 'vitest'
import { setTimeout as sleep } from 'node:timers/promises'
import { MemoryStore } from './store.ts'
import { checkStore } from './check.ts'
import { spawnWriter } from './testing/spawn.ts'
import { tempHome } from './testing/tmp.ts'

let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await t.cleanup()
})

// Defaults run in the normal suite; raise them for a stress run, e.g.
// CYRENE_CRASH_KILLS=1000 CYRENE_CRASH_LANES=4 npx vitest run memory/crash
const KILLS = Number(process.env.CYRENE_CRASH_KILLS ?? 200)
const LANES = Number(process.env.CYRENE_CRASH_LANES ?? 2)

it(
  `SIGKILL a writer at random points ${KILLS} times: no torn file, every acknowledged write present, store checks clean`,
  async () => {
    const acked = new Map<string, string>()
    let kills = 0
    let killedMidWrite = 0
    async function lane(): Promise<void> {
      while (kills < KILLS) {
        kills++
        const w = spawnWriter(t.home, 'forever', `k${kills}`)
        await w.ready
        // A random point: mostly somewhere within the first few writes (after the
        // first acknowledgement, so the kill lands in the write path), sometimes
        // before any write has finished.
        if (Math.random() < 0.85) await w.firstAck
        await sleep(Math.random() * 25)
        w.child.kill('SIGKILL')
        await w.done
        if (w.acks.size > 0) killedMidWrite++
        for (const [id, text] of w.acks) acked.set(id, text)
      }
    }
    await Promise.all(Array.from({ length: LANES }, lane))
    expect(kills).toBeGreaterThanOrEqual(KILLS)
    // The test is only meaningful if kills landed while writes were going on.
    expect(killedMidWrite).toBeGreaterThan(KILLS / 4)
    expect(acked.size).toBeGreaterThan(0)

    const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const { entries, problems, files } = await store.scan()
    expect(problems).toEqual([])
    for (const f of files) expect(f.loose).toEqual([])
    const byId = new Map(entries.map((e) => [e.id, e.text]))
    expect(byId.size).toBe(entries.length)
    for (const [id, text] of acked) expect(byId.get(id), `acknowledged ${id} missing`).toBe(text)
    const report = await checkStore(store)
    expect(report.errors).toEqual([])
    // After the kills, writing still works (a dead writer's lock is reclaimed).
    const r = await store.write({ text: 'after the storm', kind: 'fact', axis: '德', reason: 'r' }, { by: 'person' })
    expect((await store.get(r.id))?.text).toBe('after the storm')
  },
  Math.max(240_000, KILLS * 1500),
)
