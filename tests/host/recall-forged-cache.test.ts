import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT_NAME } from '../../memory/paths.ts'
import { keeperCacheFile, RecallKeeper } from '../../recall/index.ts'
import { bootHost, type Host } from '../harness/host.ts'
import { cyreneOk } from '../harness/hits.ts'

// CONTRACT#recall-cache on a real host. The cache lives beside the store, outside what the store
// guard watches, so a model with a shell can rewrite it. A forged cache — well-formed, every file's
// stamp right, another text for an entry — is not used: the next host rebuilds from the files, and
// neither a turn nor the person's command recalls what only the cache said. This checks what the
// host does, not which check refuses the forgery: with the seal check taken out, the host still
// rebuilt (recall/keeper.test.ts holds the seal's own case).

const hosts: Host[] = []
// Both hosts share one DSH home of the test's own: a host the harness made would take its home with it.
const home = mkdtempSync(join(tmpdir(), 'cyrene-forged-cache-'))
afterAll(async () => {
  for (const host of hosts) await host.dispose()
  rmSync(home, { recursive: true, force: true })
})

describe('a forged recall cache on a real host', () => {
  it('is rebuilt from the files: the forged text is never recalled, the real one is', async () => {
    const first = await bootHost({ dshHome: home })
    hosts.push(first)
    const memory = first.ctx.get('cyreneMemory')
    await memory.ready
    await cyreneOk(
      first,
      'memory',
      'write',
      '喜欢乌龙茶，每天下午一杯。',
      '--kind',
      'fact',
      '--axis',
      '美',
      '--reason',
      '口味',
      '--at',
      '2019-05-01T10:00:00+08:00',
    )
    await memory.recallReady
    // The person's write is theirs: the store guard has looked at it and kept it before the host goes.
    await (first.ctx.get('cyreneStoreGuard') as { effects: { whenSettled(): Promise<void> } }).effects.whenSettled()
    const [tea] = JSON.parse(await cyreneOk(first, 'memory', 'search', '乌龙茶', '--json')) as { id: string }[]
    expect(tea).toBeDefined()
    await first.dispose()
    hosts.pop()
    const root = join(home, ROOT_NAME)
    // The cache and its seal as a keeper leaves them.
    await RecallKeeper.open(root)
    expect(existsSync(keeperCacheFile(root))).toBe(true)

    // What a shell can do: rewrite the cache with the same entry saying something else.
    const forger = await RecallKeeper.open(root, { ownThread: true })
    ;(forger as unknown as { index: { add(doc: object): void } }).index.add({
      id: tea!.id,
      text: '最爱喝美式咖啡。',
      at: '2019-05-01T02:00:00.000Z',
      source: 'entry',
    })
    await forger.save()

    const second = await bootHost({ dshHome: home })
    hosts.push(second)
    const again = second.ctx.get('cyreneMemory')
    await again.ready
    await again.recallReady
    expect((await again.recall('美式咖啡', 8)).map((h: { text: string }) => h.text).join('')).not.toContain('咖啡')
    expect((await again.recall('乌龙茶', 8)).map((h: { id: string }) => h.id)).toContain(tea!.id)
    const person = JSON.parse(await cyreneOk(second, 'memory', 'recall', '美式咖啡', '--json')) as { hits: { text?: string }[] }
    expect(JSON.stringify(person.hits)).not.toContain('咖啡')
  })
})
