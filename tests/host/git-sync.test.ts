import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { MemoryStore } from '../../memory/index.ts'
import { bootHost, type Host } from '../harness/host.ts'

/**
 * Two machines in real hosts (two DSH_HOMEs, one after the other in this
 * process) and a bare repository on disk: what the model wrote on A (a
 * memory_write tool call from the mock LLM) is what she remembers on B after
 * both ran /cyrene sync.
 */
const dir = mkdtempSync(join(tmpdir(), 'cyrene-git-host-'))
const bare = join(dir, 'remote.git')
execFileSync('git', ['init', '--bare', '--quiet', '-b', 'main', bare])
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const withRemote = (home: string): void => {
  mkdirSync(join(home, 'cyrene-philia093-0', '元'), { recursive: true })
  writeFileSync(join(home, 'cyrene-philia093-0', '元', 'settings.json'), JSON.stringify({ git: { remote: bare } }))
}

const FACT = '对方家里的猫叫汤圆，是一只三花。'

/** A chat turn on `host` in which the scripted model writes FACT with memory_write, then answers; returns the session and the entry. */
async function modelWrites(host: Host): Promise<{ chat: any; written: any }> {
  let wrote = false
  host.llm.script = () => {
    if (wrote) return { text: '记住了。' }
    wrote = true
    return { tool: 'memory_write', args: { text: FACT, kind: 'fact', axis: '美', reason: '对方在意的生活细节' } }
  }
  const chat = await host.createAgent('chat')
  await host.turn(chat, '我家的猫叫汤圆，是三花。')
  const written = (await host.ctx.get('cyreneMemory').store().scan()).entries.find((e: { text: string }) => e.text === FACT)
  return { chat, written }
}

describe('git sync in a real host (issue 24)', () => {
  it('an entry the model writes on A is recalled on B after both sync', { timeout: 240_000 }, async () => {
    const a = await bootHost({ dshHome: join(dir, 'a'), prepareHome: withRemote })
    try {
      await a.ctx.get('cyreneMemory').ready
      const { chat, written } = await modelWrites(a)
      expect(written?.meta.by).toBe('model')
      const answer = await a.command(chat, '/cyrene sync')
      expect(answer?.text).toMatch(/^Git 同步：提交了 [\d,]+ 条记忆/)
      expect(execFileSync('git', ['--git-dir', bare, 'log', '-1', '--format=%B', 'main'], { encoding: 'utf8' })).toContain(written!.id)
      // The harness's DSH speaks Chinese (settings.yaml locale zh): the git checks under --verbose.
      const doctor = await a.command(chat, '/cyrene doctor --verbose')
      expect(doctor?.text).toMatch(/git 同步：远端 .*remote\.git；\.git\/ 里的历史 [\d.]+ MB/)
      expect(doctor?.text).toMatch(/git 同步（后台）：.*已发到 /)
      // The sync's own git (started by the host, maybe while the model's call ran) is the host's: the guard put nothing back.
      expect(a.ctx.get('cyreneStoreGuard').counts().undone).toBe(0)
    } finally {
      await a.dispose()
    }

    const b = await bootHost({ dshHome: join(dir, 'b'), prepareHome: withRemote })
    try {
      await b.ctx.get('cyreneMemory').ready
      const chat = await b.createAgent('chat')
      const answer = await b.command(chat, '/cyrene sync')
      expect(answer?.text).toMatch(/^Git 同步：.*(从其他机器取来|和其他机器合并了) \d+ 个文件/)
      const store = b.ctx.get('cyreneMemory').store()
      expect((await store.scan()).entries.map((e: { text: string }) => e.text)).toContain(FACT)
      await b.recallReady()
      b.llm.script = () => ({ text: '汤圆。' })
      await b.turn(chat, '我家的猫叫什么名字？')
      const request = b.llm.requests.find((r) => JSON.stringify(r.messages).includes('我家的猫叫什么名字'))
      // Written today, so it is in {{cyrene_memory}}'s 近来 (the hits never repeat what the block shows).
      expect(`${request?.system}${JSON.stringify(request?.messages)}`).toContain(FACT)
    } finally {
      await b.dispose()
    }
  })

  it('a remote the person sets with the CLI while DSH runs is what the background sync and /cyrene sync use', { timeout: 240_000 }, async () => {
    const late = join(dir, 'late.git')
    execFileSync('git', ['init', '--bare', '--quiet', '-b', 'main', late])
    const head = (): string => execFileSync('git', ['--git-dir', late, 'log', '--format=%B', 'main'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
    const pushed = (): string => {
      try {
        return head()
      } catch {
        return '' // nothing pushed yet: the branch does not exist
      }
    }
    const host = await bootHost({ dshHome: join(dir, 'c') })
    try {
      await host.ctx.get('cyreneMemory').ready
      // What `cyrene sync git --remote` does first, in its own process: its own store on the same home saves the remote.
      const cli = await MemoryStore.open({ env: { DSH_HOME: host.dshHome } })
      await cli.saveSettings({ git: { remote: late } })
      const { chat, written } = await modelWrites(host)
      // Nobody asked for a sync: the write's debounce runs it, with the remote the host never saved itself.
      const deadline = Date.now() + 120_000
      while (!pushed().includes(`- ${written!.id}`) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200))
      expect(pushed()).toContain(`- ${written!.id}`)
      expect((await host.command(chat, '/cyrene sync'))?.text).toMatch(/^Git 同步：没有新的要提交；其他机器没有新的；已发到 /)
    } finally {
      await host.dispose()
    }
  })
})
