import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { GuardWindowBusyError, markWindowClosed, markWindowOpen, sweepDeadMarks, windowsOpenElsewhere } from './guard-window.ts'

const cleanup: Array<() => void> = []
afterEach(() => {
  for (const c of cleanup.splice(0)) c()
})

function metaDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cyrene-guard-window-'))
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** A live process that is not this one, as another DSH host would be. */
function otherProcess(): number {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' })
  cleanup.push(() => void child.kill('SIGKILL'))
  return child.pid!
}

/**
 * Another DSH host with a window open: a process that writes its own mark in `dir` (with `extra` fields) and holds it
 * open, as durable/guard-window.ts does (decision 318). Resolves with its pid once the mark is there.
 */
async function otherHost(dir: string, extra: object = {}): Promise<number> {
  const script = `const fs = require('fs'), os = require('os');
const fd = fs.openSync(process.argv[1] + '/guard-window.' + process.pid + '.lock', 'w', 0o600);
fs.writeSync(fd, JSON.stringify({ pid: process.pid, host: os.hostname(), since: '2026-12-07T08:00:00.000Z', ...JSON.parse(process.argv[2]) }));
process.stdout.write('ready\\n');
setInterval(() => {}, 60000);`
  const child = spawn(process.execPath, ['-e', script, dir, JSON.stringify(extra)], { stdio: ['ignore', 'pipe', 'inherit'] })
  cleanup.push(() => void child.kill('SIGKILL'))
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve())
    child.once('exit', (code) => reject(new Error(`the other host ended (${code})`)))
  })
  return child.pid!
}

/** A pid whose process has ended. */
function endedPid(): number {
  return Number(spawnSync('sh', ['-c', 'echo $$'], { encoding: 'utf8' }).stdout.trim())
}

const plant = (dir: string, pid: number, extra: object = {}) =>
  writeFileSync(join(dir, `guard-window.${pid}.lock`), JSON.stringify({ pid, host: hostname(), since: '2026-12-07T08:00:00.000Z', ...extra }))

describe('the guard window mark (decision 295)', () => {
  it("this process's own mark is made private, is not a window for itself, and goes when closed", () => {
    const dir = metaDir()
    expect(markWindowOpen(dir)).toBe(true)
    const file = join(dir, `guard-window.${process.pid}.lock`)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    // No temp file is left beside it.
    expect(readdirSync(dir)).toEqual([`guard-window.${process.pid}.lock`])
    expect(windowsOpenElsewhere(dir)).toEqual([])
    markWindowClosed(dir)
    expect(existsSync(file)).toBe(false)
  })

  it("another live process's mark is an open window; a gone process's, another machine's or a broken one is not", async () => {
    const dir = metaDir()
    const live = await otherHost(dir)
    plant(dir, endedPid())
    plant(dir, live + 1, { host: 'another-machine' })
    writeFileSync(join(dir, 'guard-window.7.lock'), '{torn')
    const open = windowsOpenElsewhere(dir)
    expect(open.map((m) => m.pid)).toEqual([live])
    expect(open[0]!.file).toBe(join(dir, `guard-window.${live}.lock`))
  })

  it('a mark naming a live pid with another start time (the pid handed to a new process) is not a window', () => {
    const dir = metaDir()
    plant(dir, otherProcess(), { start: 1 })
    expect(windowsOpenElsewhere(dir)).toEqual([])
  })

  it("a mark under another pid's name (guard-window.0123.lock holding a live pid) is no window, and sweeping removes it", async () => {
    const dir = metaDir()
    const live = await otherHost(metaDir())
    const record = JSON.stringify({ pid: live, host: hostname(), since: '2026-12-07T08:00:00.000Z' })
    writeFileSync(join(dir, `guard-window.0${live}.lock`), record)
    writeFileSync(join(dir, `guard-window.${live + 1}.lock`), record)
    expect(windowsOpenElsewhere(dir)).toEqual([])
    const own = `guard-window.${await otherHost(dir)}.lock`
    expect(windowsOpenElsewhere(dir).map((m) => m.file)).toEqual([join(dir, own)])
    sweepDeadMarks(dir)
    expect(readdirSync(dir)).toEqual([own])
  })

  it('a mark a call wrote for a live process that does not hold it open (pid 1, a process that only lives) is no window, and sweeping removes it (decision 318)', async () => {
    const dir = metaDir()
    // Before decision 318 each of these made every write of the person's wait and then refuse, for as long as that process lived.
    plant(dir, 1)
    plant(dir, otherProcess())
    expect(windowsOpenElsewhere(dir)).toEqual([])
    const host = await otherHost(dir)
    expect(windowsOpenElsewhere(dir).map((m) => m.pid)).toEqual([host])
    sweepDeadMarks(dir)
    expect(readdirSync(dir)).toEqual([`guard-window.${host}.lock`])
  })

  it('sweeping removes only the marks of gone processes of this machine', async () => {
    const dir = metaDir()
    const live = await otherHost(dir)
    const gone = endedPid()
    plant(dir, gone)
    plant(dir, gone + 100000, { host: 'another-machine' })
    sweepDeadMarks(dir)
    expect(readdirSync(dir).sort()).toEqual([`guard-window.${gone + 100000}.lock`, `guard-window.${live}.lock`].sort())
  })

  it("what a call left under a mark's name that is no regular file (a FIFO, a link to a device, a folder) is no window and is read without waiting", () => {
    const dir = metaDir()
    const live = otherProcess()
    // A FIFO opened for reading would wait for a writer (this thread would stop); /dev/zero would never end.
    expect(spawnSync('mkfifo', [join(dir, 'guard-window.1.lock')]).status).toBe(0)
    symlinkSync('/dev/zero', join(dir, 'guard-window.2.lock'))
    // A link to a record naming a live process: a guard's own mark is never a link.
    writeFileSync(join(dir, 'record'), JSON.stringify({ pid: live, host: hostname(), since: '2026-12-07T08:00:00.000Z' }))
    symlinkSync(join(dir, 'record'), join(dir, `guard-window.${live}.lock`))
    expect(windowsOpenElsewhere(dir)).toEqual([])
    sweepDeadMarks(dir)
    expect(existsSync(join(dir, 'guard-window.1.lock'))).toBe(true)
  })

  it('a missing folder has no windows and a mark that cannot be written says so without throwing', () => {
    expect(windowsOpenElsewhere('/nonexistent/cyrene')).toEqual([])
    expect(markWindowOpen('/nonexistent/cyrene')).toBe(false)
  })

  it('the refusal names the process, the mark and that nothing was changed, in a coded form for the catalogue', () => {
    const mark = { pid: 42, host: hostname(), since: '2026-12-07T08:00:00.000Z', held: [], file: '/x/元/guard-window.42.lock' }
    const e = new GuardWindowBusyError(mark, 4000)
    expect(e.message).toContain('process 42')
    expect(e.message).toContain('Nothing was changed')
    expect(e.message).toContain('/x/元/guard-window.42.lock')
    expect(e.said).toEqual({ code: 'refused.guard-window', params: { pid: '42', since: mark.since, mark: mark.file } })
  })

  it('a mark names the processes that keep its window open once the call returned; the refusal passes them on, a forged name shown as plain text', async () => {
    const dir = metaDir()
    const live = await otherHost(dir, {
      held: [{ pid: 4242, comm: 'nautilus' }, { pid: 4343, comm: 'evil\u001b]0;x\u0007\u202e' }, { pid: -1, comm: 'no pid' }, 'not a process'],
    })
    const [mark] = windowsOpenElsewhere(dir)
    expect(mark!.held).toEqual([
      { pid: 4242, comm: 'nautilus' },
      { pid: 4343, comm: 'evil?]0;x??' },
    ])
    const e = new GuardWindowBusyError(mark!, 4000)
    expect(e.message).toContain('what keeps it open is 4242 (nautilus), 4343 (evil?]0;x??)')
    expect(e.said).toEqual({
      code: 'refused.guard-window-held',
      params: { pid: String(live), since: mark!.since, mark: mark!.file, processes: '4242 (nautilus), 4343 (evil?]0;x??)' },
    })
  })

  it('this process rewrites its own mark with its holders and keeps the time its window opened', () => {
    const dir = metaDir()
    expect(markWindowOpen(dir, '2026-12-07T09:00:00.000Z')).toBe(true)
    expect(markWindowOpen(dir, '2026-12-07T09:00:00.000Z', [{ pid: 7, comm: 'python3' }])).toBe(true)
    const record = JSON.parse(readFileSync(join(dir, `guard-window.${process.pid}.lock`), 'utf8')) as { since: string; held: unknown }
    expect(record).toMatchObject({ since: '2026-12-07T09:00:00.000Z', held: [{ pid: 7, comm: 'python3' }] })
    expect(readdirSync(dir)).toEqual([`guard-window.${process.pid}.lock`])
  })
})
