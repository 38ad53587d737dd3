import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, watch, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { LockBusyError } from '../durable/lock.ts'
import { spawnLockHolder, type Holder } from '../durable/testing/spawn.ts'
import { errorText } from '../i18n/store-said.ts'
import { resolveRoot } from '../memory/paths.ts'
import { runCyrene } from '../tests/harness/cli.ts'

/**
 * A person's write while another live process holds 元/write.lock (decision 086):
 * a short hold is waited out, a paused holder ends in a refusal in the
 * person's language once `lock.waitSeconds` has passed. Real processes, a real lock.
 */
const cleanup: Array<() => void> = []
afterEach(() => {
  for (const c of cleanup.splice(0)) c()
})

function home(settings?: object): { env: NodeJS.ProcessEnv; root: string; lock: string } {
  const dshHome = mkdtempSync(join(tmpdir(), 'cyrene-lock-wait-'))
  cleanup.push(() => rmSync(dshHome, { recursive: true, force: true }))
  const env = { ...process.env, DSH_HOME: dshHome, DSH_WHALE_CONFIG: '' }
  const root = resolveRoot({ env })
  mkdirSync(join(root, '元'), { recursive: true })
  if (settings !== undefined) writeFileSync(join(root, '元', 'settings.json'), JSON.stringify(settings))
  return { env, root, lock: join(root, '元', 'write.lock') }
}

async function hold(lock: string): Promise<Holder> {
  const holder = spawnLockHolder(lock, 10_000, 'host')
  cleanup.push(() => {
    holder.child.kill('SIGCONT')
    holder.child.kill('SIGKILL')
  })
  expect(await holder.next('READY', 'EXITED')).toBe('READY')
  return holder
}

const write = (text: string, lang: string) => ['memory', 'write', text, '--kind', 'fact', '--axis', '智', '--reason', '测试写锁', '--lang', lang]

describe('a person’s write while the write lock is held (decision 086)', () => {
  it('waits for a holder that lets go, then writes', async () => {
    const t = home()
    const holder = await hold(t.lock)
    // Let go only once the command has tried the held lock: its intent file beside the lock is its try.
    const tried = new Promise<void>((resolve) => {
      const w = watch(join(t.root, '元'), (_event, name) => {
        if (name !== null && name.startsWith('write.lock.intent.') && name !== `write.lock.intent.${holder.child.pid}`) {
          w.close()
          resolve()
        }
      })
      cleanup.push(() => w.close())
    })
    const run = runCyrene(write('等锁的人写下的这一条', 'en'), t.env)
    await tried
    holder.send('release')
    expect(await holder.next('RELEASED', 'EXITED')).toBe('RELEASED')
    const done = await run
    expect(done.status, done.stderr).toBe(0)
    const list = await runCyrene(['memory', 'list', '--json'], t.env)
    expect(list.stdout).toContain('等锁的人写下的这一条')
  })

  it('refuses, in the person’s language, once the deadline passes with a paused holder; nothing is written', async () => {
    const t = home({ lock: { waitSeconds: 1 } })
    const inboxDir = join(t.env.DSH_HOME!, 'whale-persona')
    mkdirSync(inboxDir, { recursive: true })
    const inbox = join(inboxDir, 'memory-inbox.jsonl')
    writeFileSync(inbox, `${JSON.stringify({ text: '还没确认的事', at: '2026-01-03T03:04:05Z', status: 'proposed' })}\n`)
    const holder = await hold(t.lock)
    const pid = String(holder.child.pid)
    holder.child.kill('SIGSTOP')

    const zh = await runCyrene(write('不该写进去的一条', 'zh'), t.env)
    expect(zh.status).toBe(2)
    expect(zh.stderr).toContain(`正被进程 ${pid} 占着`)
    expect(zh.stderr).not.toContain('busy:')
    const en = await runCyrene(write('不该写进去的一条', 'en'), t.env)
    expect(en.status).toBe(2)
    expect(en.stderr).toContain(`is held by process ${pid}`)

    const confirmZh = await runCyrene(['whale', 'inbox', 'confirm', '0', '--lang', 'zh'], t.env)
    expect(confirmZh.status).toBe(2)
    expect(confirmZh.stderr).toContain(`正被进程 ${pid} 占着`)
    expect(confirmZh.stderr).toContain('什么都没确认')
    expect(confirmZh.stderr).not.toContain('busy:')
    const confirmEn = await runCyrene(['whale', 'inbox', 'confirm', '0', '--lang', 'en'], t.env)
    expect(confirmEn.status).toBe(2)
    expect(confirmEn.stderr).toContain(`is held by process ${pid}`)
    expect(confirmEn.stderr).toContain('Nothing was confirmed.')
    expect(confirmEn.stderr).not.toMatch(/[\u4e00-\u9fff]{4}/)

    // The paused holder still owns the lock; the inbox and the store are as they were.
    expect(JSON.parse(readFileSync(`${t.lock}.owner`, 'utf8'))).toMatchObject({ pid: holder.child.pid })
    expect(
      readFileSync(inbox, 'utf8')
        .split('\n')
        .filter((l) => l !== ''),
    ).toHaveLength(1)
    holder.child.kill('SIGCONT')
    holder.send('release')
    expect(await holder.next('RELEASED', 'EXITED')).toBe('RELEASED')
    expect((await runCyrene(['memory', 'list', '--json'], t.env)).stdout).not.toContain('不该写进去的一条')
  })

  it('a lock a tool call forged for pid 1 and left behind is taken over: the person’s write lands, where it waited out and refused (decision 326)', async () => {
    const t = home({ lock: { waitSeconds: 5 } })
    // What a call's `bash` can do: the folder, and a record naming a live process with its start time and the folder's inode.
    mkdirSync(t.lock)
    const stat = readFileSync('/proc/1/stat', 'utf8')
    const start = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19])
    writeFileSync(`${t.lock}.owner`, JSON.stringify({ pid: 1, host: hostname(), at: 'x', purpose: 'write', ino: statSync(t.lock).ino, token: 'forged', start }))
    // The call has ended: nothing refreshes the folder any more.
    const old = new Date(Date.now() - 60_000)
    utimesSync(t.lock, old, old)
    const run = await runCyrene(write('伪造的锁挡不住的一条', 'en'), t.env)
    expect(run.status, run.stderr).toBe(0)
    expect((await runCyrene(['memory', 'list', '--json'], t.env)).stdout).toContain('伪造的锁挡不住的一条')
  })

  it('the chat commands word the same refusal from its said (`/cyrene backup` under a held lock)', () => {
    const busy = new LockBusyError('busy: the lock /h/元/write.lock is held by process 42.', { pid: 42 } as never, true, '/h/元/write.lock')
    expect(errorText(busy, 'zh')).toContain('锁 /h/元/write.lock 正被进程 42 占着')
    expect(errorText(busy, 'en')).toBe('busy: the lock /h/元/write.lock is held by process 42.')
  })
})
