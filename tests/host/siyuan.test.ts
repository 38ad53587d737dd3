import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SiyuanStandIn } from '../../siyuan/testing/stand-in.ts'
import { bootHost, PROJECT_ROOT, type Host } from '../harness/host.ts'

/**
 * The SiYuan sync as the bundle mounts it (row cyrene-panel) in a real host:
 * a write made outside the chat (the person's CLI) reaches the stand-in
 * within 3 s, through the store watcher and the 1.5 s debounce.
 */
const TOKEN = 'host-test-token-2718'
let host: Host
let siyuan: SiyuanStandIn
const previous = process.env.SIYUAN_API_TOKEN

async function until<T>(probe: () => T | undefined, ms: number): Promise<T | undefined> {
  const deadline = Date.now() + ms
  for (;;) {
    const v = probe()
    if (v !== undefined || Date.now() > deadline) return v
    await new Promise((r) => setTimeout(r, 50))
  }
}

beforeAll(async () => {
  siyuan = new SiyuanStandIn(TOKEN)
  await siyuan.start()
  process.env.SIYUAN_API_TOKEN = TOKEN
  host = await bootHost({
    prepareHome: (home) => {
      mkdirSync(join(home, 'cyrene-philia093-0', '元'), { recursive: true })
      writeFileSync(join(home, 'cyrene-philia093-0', '元', 'settings.json'), JSON.stringify({ siyuan: { enabled: true, url: siyuan.url, notebook: '昔涟' } }))
    },
  })
  await host.ctx.get('cyreneMemory').ready
})
afterAll(async () => {
  await host?.dispose()
  await siyuan?.stop()
  if (previous === undefined) delete process.env.SIYUAN_API_TOKEN
  else process.env.SIYUAN_API_TOKEN = previous
})

describe('SiYuan sync in a real host (issue 12 item 4)', () => {
  it('a CLI write reaches SiYuan within 3 s, once, without its metadata line', async () => {
    const began = Date.now()
    const run = spawnSync(process.execPath, ['bin/cyrene.js', 'memory', 'write', '周末去看海。', '--kind', 'plan', '--axis', '美', '--reason', '计划'], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DSH_HOME: host.dshHome },
      encoding: 'utf8',
    })
    expect(run.status, run.stderr).toBe(0)
    const doc = await until(() => [...siyuan.docs.values()].find((d) => d.markdown.includes('周末去看海。')), 3000 - (Date.now() - began))
    expect(doc, 'the write did not reach SiYuan within 3 s').toBeDefined()
    expect(doc?.hpath).toMatch(/^\/岁月涟漪\/日档\/\d{4}\/\d{2}\/\d{4}-\d{2}-\d{2}$/)
    expect(doc?.markdown).not.toContain('<!--cyrene:')
    await new Promise((r) => setTimeout(r, 2000))
    expect(siyuan.docsAt(doc?.hpath as string)).toHaveLength(1)
  })

  it('/cyrene sync runs it now and answers what was sent; the doctor shows the last run', async () => {
    const agent = await host.createAgent('chat')
    const answer = await host.command(agent, '/cyrene sync')
    expect(answer?.text).toMatch(/^思源同步：发出 \d+ 个，删除 0 个，\d+ 个没变（笔记本 昔涟）$/)
    const doctor = await host.command(agent, '/cyrene doctor --verbose')
    expect(doctor?.text).toMatch(/✓ 思源同步：.*发出 \d+ 个/)
  })

  it('read-only mode (issue 21): /cyrene sync says it is refused and not retried; the doctor shows it as a warning', async () => {
    siyuan.readOnly = true
    try {
      const agent = await host.createAgent('chat')
      mkdirSync(join(host.dshHome, 'cyrene-philia093-0', '余页'), { recursive: true })
      writeFileSync(join(host.dshHome, 'cyrene-philia093-0', '余页', 'ro.md'), '只读时写下。')
      const answer = await host.command(agent, '/cyrene sync')
      // SiYuan's own words stay as it said them; ours are in the person's language.
      expect(answer?.text).toContain('This operation is not supported in read-only mode')
      expect(answer?.text).toContain('思源处在只读模式；在思源里关掉它才能同步')
      expect(answer?.text).toContain('下一次同步前不再尝试')
      // The harness's DSH speaks Chinese (settings.yaml locale zh): the SiYuan check under --verbose.
      const doctor = await host.command(agent, '/cyrene doctor --verbose')
      expect(doctor?.text).toMatch(/! 思源同步：.*思源处在只读模式/)
    } finally {
      siyuan.readOnly = false
    }
  })
})
