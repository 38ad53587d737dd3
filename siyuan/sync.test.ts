import { execFile } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { dayFileRel, localDate } from '../memory/paths.ts'
import { MemoryStore } from '../memory/index.ts'
import { tempHome } from '../memory/testing/tmp.ts'
import { SiyuanSync } from './sync.ts'
import { siyuanReportText } from './report-text.ts'
import { doctorLines } from './doctor.ts'
import { SiyuanStandIn } from './testing/stand-in.ts'

const TOKEN = 'tok-3141'
let t: Awaited<ReturnType<typeof tempHome>>
let store: MemoryStore
let siyuan: SiyuanStandIn

async function enable(url = siyuan.url): Promise<void> {
  await store.saveSettings({ siyuan: { enabled: true, url, notebook: '昔涟' } })
}

const sync = (env: NodeJS.ProcessEnv = { SIYUAN_API_TOKEN: TOKEN }, timeoutMs = 10_000) => new SiyuanSync(store, { env, timeoutMs, backoffMs: [60_000] })
const put = (rel: string, text: string) => {
  mkdirSync(dirname(join(t.root, rel)), { recursive: true })
  writeFileSync(join(t.root, rel), text)
}
const creates = () => siyuan.calls.filter((c) => c.endpoint === '/api/filetree/createDocWithMd').length

beforeEach(async () => {
  t = await tempHome()
  store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
  siyuan = new SiyuanStandIn(TOKEN)
  await siyuan.start()
})
afterEach(async () => {
  await siyuan.stop()
  await store.close()
  await t.cleanup()
})

describe('SiYuan one-way sync (issue 12 item 4)', () => {
  it('one document per store file at the same path, without the metadata lines', async () => {
    await store.write({ text: '雨天听黑胶。', kind: 'preference', axis: '美', reason: '稳定偏好' }, { by: 'person' })
    put('锚/我是谁.md', '# 我是谁\n\n我是昔涟。\n')
    put('梦境/2026/11/2026-11-29.md', '# 梦\n\n<!--cyrene:{"id":"x"}-->\n一场海边的梦。\n')
    put('元/notes.md', 'never sent')
    await enable()
    const report = await sync().runNow()
    expect(report).toMatchObject({ ok: true, sent: 3, removed: 0 })
    const docs = [...siyuan.docs.values()]
    const day = `/${dayFileRel(localDate(new Date())).replace(/\.md$/, '')}`
    expect(docs.map((d) => d.hpath).sort()).toEqual([day, '/梦境/2026/11/2026-11-29', '/锚/我是谁'].sort())
    expect(siyuan.docsAt(day)[0]?.markdown).toContain('雨天听黑胶。')
    for (const d of docs) expect(d.markdown).not.toContain('<!--cyrene:')
    expect(siyuan.docsAt('/梦境/2026/11/2026-11-29')[0]?.markdown).toBe('# 梦\n\n一场海边的梦。')
    expect([...siyuan.notebooks.values()].map((n) => n.name)).toEqual(['昔涟'])
  })

  it('same content twice is one document; a lost ledger finds it by path instead of making a second', async () => {
    put('余页/随笔.md', '今天的风很轻。')
    await enable()
    await sync().runNow()
    const second = await sync().runNow()
    expect(second).toMatchObject({ sent: 0, unchanged: 1 })
    rmSync(join(t.root, '元', 'siyuan-sync.json'))
    await sync().runNow()
    expect(siyuan.docsAt('/余页/随笔')).toHaveLength(1)
    expect(creates()).toBe(1)
  })

  it('a truncated or misshapen ledger is kept aside, never written over; the run says so and the doctor names it', async () => {
    put('余页/随笔.md', '今天的风很轻。')
    await enable()
    await sync().runNow()
    const whole = readFileSync(join(t.root, '元', 'siyuan-sync.json'), 'utf8')
    const cut = whole.slice(0, Math.floor(whole.length / 2))
    writeFileSync(join(t.root, '元', 'siyuan-sync.json'), cut)
    const s = sync()
    const report = await s.runNow()
    expect(report.ok).toBe(true)
    expect(creates()).toBe(1)
    const aside = readdirSync(join(t.root, '元')).filter((n) => n.startsWith('siyuan-sync.json.corrupt-'))
    expect(aside).toHaveLength(1)
    expect(readFileSync(join(t.root, '元', aside[0]!), 'utf8')).toBe(cut)
    expect(report.keptAside).toBe(`元/${aside[0]}`)
    expect(siyuanReportText(report, 'en')).toContain(`kept aside as 元/${aside[0]}`)
    expect(doctorLines(s.state(), 'zh').map((l) => l.detail)).toContainEqual(expect.stringContaining(`元/${aside[0]}（共 1 份）`))
    expect(JSON.parse(readFileSync(join(t.root, '元', 'siyuan-sync.json'), 'utf8'))).toMatchObject({ pending: [] })
    writeFileSync(join(t.root, '元', 'siyuan-sync.json'), '["not", "a ledger"]')
    const again = await sync().runNow()
    expect(again.keptAside).toMatch(/^元\/siyuan-sync\.json\.corrupt-/)
    expect(readdirSync(join(t.root, '元')).filter((n) => n.startsWith('siyuan-sync.json.corrupt-')).length).toBeGreaterThanOrEqual(1)
    expect((await sync().runNow()).keptAside).toBeUndefined()
  })

  it('an edit updates its document, a deletion removes it', async () => {
    put('档/2026-11.md', '十一月：三条。')
    await enable()
    const s = sync()
    await s.runNow()
    put('档/2026-11.md', '十一月：四条。')
    expect(await s.runNow()).toMatchObject({ sent: 1 })
    expect(siyuan.docsAt('/档/2026-11')[0]?.markdown).toBe('十一月：四条。')
    rmSync(join(t.root, '档/2026-11.md'))
    expect(await s.runNow()).toMatchObject({ removed: 1 })
    expect(siyuan.docsAt('/档/2026-11')).toHaveLength(0)
  })

  it('SiYuan down: nothing lost, the queue survives a restart, each file is sent once when it is back', async () => {
    put('余页/一.md', '一')
    put('余页/二.md', '二')
    await enable()
    await siyuan.stop()
    const down = await sync().runNow()
    expect(down.ok).toBe(false)
    expect(down.queued).toBe(2)
    expect(down.message).toMatch(/not reachable; 2 file\(s\) wait/)
    expect(JSON.parse(readFileSync(join(t.root, '元', 'siyuan-sync.json'), 'utf8')).pending).toEqual(['余页/一.md', '余页/二.md'])
    await siyuan.start()
    // A new sync object = a restarted DSH reading the ledger.
    const back = await sync().runNow()
    expect(back).toMatchObject({ ok: true, sent: 2 })
    expect(creates()).toBe(2)
    expect(await sync().runNow()).toMatchObject({ sent: 0, unchanged: 2 })
  })

  it('fails like SiYuan: 200 + code -1 keeps the file pending; a bad token is refused (401) and says so; slow answers time out', async () => {
    put('余页/一.md', '一')
    await enable()
    siyuan.failNext(1)
    const refused = await sync().runNow()
    expect(refused).toMatchObject({ ok: false, queued: 1 })
    expect(refused.message).toContain('the kernel is busy')
    const bad = await sync({ SIYUAN_API_TOKEN: 'wrong' }).runNow()
    expect(bad.message).toContain('refused the token (HTTP 401)')
    expect(JSON.stringify(bad)).not.toContain('wrong')
    siyuan.delayMs = 1500
    const slow = await sync({ SIYUAN_API_TOKEN: TOKEN }, 300).runNow()
    expect(slow.message).toMatch(/no answer in 300 ms/)
    siyuan.delayMs = 0
    // The slow answer still arrives at the stand-in, as it would at SiYuan; the next run comes after it.
    await siyuan.settled()
    expect(await sync().runNow()).toMatchObject({ ok: true, sent: 1 })
    expect(siyuan.docsAt('/余页/一')).toHaveLength(1)
  })

  it('off, or no token: says what to do and sends nothing; the token is never written', async () => {
    put('余页/一.md', '一')
    expect((await sync().runNow()).message).toContain('siyuan.enabled')
    await enable()
    expect((await sync({}).runNow()).message).toContain('set the environment variable SIYUAN_API_TOKEN')
    expect(siyuan.calls).toHaveLength(0)
    await sync().runNow()
    expect(readFileSync(join(t.root, '元', 'siyuan-sync.json'), 'utf8')).not.toContain(TOKEN)
  })

  it('cyrene sync runs it now from the command line and reports what was sent', async () => {
    put('余页/一.md', '一')
    await enable()
    // Asynchronously: the stand-in answers from this process.
    const run = async (token: string) =>
      await new Promise<{ status: number; stdout: string }>((resolve) => {
        const env = { ...process.env, DSH_HOME: t.home, SIYUAN_API_TOKEN: token, LC_ALL: '', LC_MESSAGES: '', LANG: 'en_US.UTF-8' }
        execFile(process.execPath, [join(import.meta.dirname, '..', 'bin', 'cyrene.js'), 'sync'], { env, encoding: 'utf8' }, (error, stdout) =>
          resolve({ status: error === null ? 0 : Number(error.code), stdout }),
        )
      })
    const first = await run(TOKEN)
    expect(first.stdout).toBe('sync: sent 1, removed 0, unchanged 0 (notebook 昔涟)\n')
    expect(first.status).toBe(0)
    put('余页/一.md', '一，二')
    const refused = await run('nope')
    expect(refused.status).toBe(1)
    expect(refused.stdout).toContain('refused the token')
    expect(siyuan.docsAt('/余页/一')).toHaveLength(1)
  })
})

describe('SiYuan as its kernel answers (issue 21)', () => {
  const ledger = () => JSON.parse(readFileSync(join(t.root, '元', 'siyuan-sync.json'), 'utf8')) as { pending: string[]; failed: Record<string, unknown> }
  const removedInSiyuan = (hpath: string) => {
    for (const d of siyuan.docsAt(hpath)) siyuan.docs.delete(d.id)
  }

  it('a document removed in SiYuan is made again and the files after it still go out; a removal of a removed one is done', async () => {
    put('余页/一.md', '一')
    put('余页/二.md', '二')
    put('余页/三.md', '三')
    await enable()
    const s = sync()
    await s.runNow()
    removedInSiyuan('/余页/一')
    removedInSiyuan('/余页/三')
    put('余页/一.md', '一，改')
    put('余页/二.md', '二，改')
    rmSync(join(t.root, '余页/三.md'))
    const report = await s.runNow()
    expect(report).toMatchObject({ ok: true, sent: 2, removed: 1, recreated: 1 })
    expect(report.message).toContain('made again 1 document(s) removed in SiYuan')
    expect(siyuan.docsAt('/余页/一')[0]?.markdown).toBe('一，改')
    expect(siyuan.docsAt('/余页/二')[0]?.markdown).toBe('二，改')
    expect(ledger().pending).toEqual([])
    expect(await s.runNow()).toMatchObject({ ok: true, sent: 0, unchanged: 2 })
  })

  it('a closed notebook of that name is never written into: the person is told, nothing is created, nothing retried', async () => {
    const closed = siyuan.addNotebook('昔涟', true)
    put('余页/一.md', '一')
    await enable()
    const report = await sync().runNow()
    expect(report).toMatchObject({ ok: false, queued: 1 })
    expect(report.message).toContain('notebook "昔涟" is closed')
    expect(report.message).toContain('not tried again until the next run')
    expect(siyuan.notebooks.size).toBe(1)
    expect(creates()).toBe(0)
    // Opened again in SiYuan: the next run writes into it.
    ;(siyuan.notebooks.get(closed) as { closed: boolean }).closed = false
    expect(await sync().runNow()).toMatchObject({ ok: true, sent: 1 })
    expect(siyuan.docsAt('/余页/一')[0]?.notebook).toBe(closed)
  })

  it('an open notebook is chosen over a closed one of the same name', async () => {
    siyuan.addNotebook('昔涟', true)
    const open = siyuan.addNotebook('昔涟')
    put('余页/一.md', '一')
    await enable()
    expect(await sync().runNow()).toMatchObject({ ok: true, sent: 1 })
    expect(siyuan.docsAt('/余页/一')[0]?.notebook).toBe(open)
  })

  it('read-only mode (200, code -1) and a reader (403) are refusals that are shown and not retried with backoff', async () => {
    put('余页/一.md', '一')
    await enable()
    siyuan.readOnly = true
    const s = new SiyuanSync(store, { env: { SIYUAN_API_TOKEN: TOKEN }, backoffMs: [10] })
    const ro = await s.runNow()
    expect(ro).toMatchObject({ ok: false, queued: 1 })
    expect(ro.message).toContain('read-only mode')
    const calls = siyuan.calls.length
    await new Promise((r) => setTimeout(r, 100))
    expect(siyuan.calls.length).toBe(calls)
    expect(s.state().lastReport?.message).toContain('read-only mode')
    siyuan.readOnly = false
    siyuan.readerRole = true
    const reader = await s.runNow()
    expect(reader.message).toContain('HTTP 403')
    expect(reader.message).not.toContain('401')
    s.close()
  })

  it('lsNotebooks with code 0 and data null is a failure that waits, with a ledger written', async () => {
    put('余页/一.md', '一')
    await enable()
    siyuan.listFails = true
    const report = await sync().runNow()
    expect(report).toMatchObject({ ok: false, queued: 1 })
    expect(report.message).toContain('could not list its notebooks')
    expect(ledger().pending).toEqual(['余页/一.md'])
    siyuan.listFails = false
    expect(await sync().runNow()).toMatchObject({ ok: true, sent: 1 })
  })

  it('one refused file is set aside until it changes; the others go on; a ledger id SiYuan calls invalid is made again', async () => {
    put('余页/一.md', '一')
    put('余页/二.md', '二')
    await enable()
    const s = sync()
    await s.runNow()
    put('余页/一.md', '一，改')
    put('余页/二.md', '二，改')
    siyuan.failNext(1, '/api/block/updateBlock')
    const first = await s.runNow()
    expect(first).toMatchObject({ ok: false, failed: 1, sent: 1 })
    expect(first.problems?.[0]).toMatch(/^余页\/一\.md: .*the kernel is busy/)
    expect(siyuan.docsAt('/余页/二')[0]?.markdown).toBe('二，改')
    const calls = siyuan.calls.length
    expect(await s.runNow()).toMatchObject({ ok: false, failed: 1 })
    expect(siyuan.calls.length).toBe(calls + 1) // only lsNotebooks: the refused file is not sent again unchanged
    put('余页/一.md', '一，再改')
    expect(await s.runNow()).toMatchObject({ ok: true, sent: 1, failed: 0 })
    const raw = JSON.parse(readFileSync(join(t.root, '元', 'siyuan-sync.json'), 'utf8')) as { docs: Record<string, { id: string }> }
    raw.docs['余页/二.md'] = { id: 'not-an-id', hash: 'x' } as never
    writeFileSync(join(t.root, '元', 'siyuan-sync.json'), JSON.stringify(raw))
    expect(await sync().runNow()).toMatchObject({ ok: true, sent: 1 })
    expect(siyuan.docsAt('/余页/二')).toHaveLength(1)
  })

  it('path segments are sent as the kernel stores them: a name with edge spaces is found where it was made', async () => {
    put('余页/ 海边 .md', '海')
    await enable()
    await sync().runNow()
    expect(siyuan.docsAt('/余页/海边')).toHaveLength(1)
    rmSync(join(t.root, '元', 'siyuan-sync.json'))
    await sync().runNow()
    expect(siyuan.docsAt('/余页/海边')).toHaveLength(1)
    expect(creates()).toBe(1)
  })
})
