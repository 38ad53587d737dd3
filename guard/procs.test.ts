import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { declareHostProcess } from '../durable/host-writes.ts'
import { ModelProcesses, parseStat } from './procs.ts'

describe('the processes a tool call leaves running', () => {
  it('reads a stat line whose process name holds spaces and parentheses', () => {
    const line = '4242 (my (odd) name) S 17 4242 4242 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 987654 1000 10 0'
    expect(parseStat(line)).toEqual({ pid: 4242, ppid: 17, start: 987654, comm: 'my (odd) name' })
    expect(parseStat('garbage')).toBeUndefined()
    expect(parseStat('4243 (done) Z 1 4243 4243 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 987655 0 0 0')).toBeUndefined()
  })

  it('follows a setsid + nohup process started during the window after its shell is gone, and lets it go when it ends', async () => {
    const procs = new ModelProcesses()
    procs.open()
    // The shell exits at once; its child is re-parented (to pid 1 or a subreaper) and lives on for a second.
    const r = spawnSync('bash', ['-c', "setsid nohup sh -c 'sleep 1' >/dev/null 2>&1 < /dev/null &"], { stdio: 'ignore' })
    expect(r.status).toBe(0)
    expect(procs.scan()).toBeGreaterThanOrEqual(1)
    await sleep(1500)
    expect(procs.scan()).toBe(0)
  })

  it('a program the host starts for its own work during the window (git for the sync) is not the model’s, nor what it starts; the same program undeclared is', async () => {
    const procs = new ModelProcesses()
    procs.open()
    const own = spawn('sh', ['-c', 'sleep 2 & wait'], { stdio: 'ignore' })
    const undeclare = declareHostProcess(own.pid)
    await sleep(200)
    expect(procs.scan()).toBe(0)
    const theirs = spawn('sh', ['-c', 'sleep 2 & wait'], { stdio: 'ignore' })
    await sleep(200)
    expect(procs.scan()).toBeGreaterThanOrEqual(1)
    undeclare()
    own.kill('SIGKILL')
    theirs.kill('SIGKILL')
  })

  it('a process whose first thread ended (pthread_exit) while another thread runs on is still followed', async () => {
    const procs = new ModelProcesses()
    procs.open()
    // The leader leaves the group as a zombie; the thread it started sleeps a second, then ends the process.
    const script = 'import ctypes, threading, time\nthreading.Thread(target=lambda: time.sleep(1)).start()\nctypes.CDLL(None).pthread_exit(None)\n'
    const r = spawnSync('bash', ['-c', `setsid nohup python3 -c '${script}' >/dev/null 2>&1 < /dev/null &`], { stdio: 'ignore' })
    expect(r.status).toBe(0)
    await sleep(300)
    expect(procs.scan()).toBeGreaterThanOrEqual(1)
    await sleep(1500)
    expect(procs.scan()).toBe(0)
  })

  it('an orphan adopted by a service manager above the host (systemd --user, a container’s init) is followed as one adopted by pid 1', async () => {
    // A subreaper named as a service manager is (`tini`), with a "host" below it that leaves an orphan behind after half a second.
    const dir = mkdtempSync(join(tmpdir(), 'cyrene-reaper-'))
    try {
      // The interpreter itself, not a launcher that picks a program by the name it is called by (pyenv's shim).
      symlinkSync(spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout.trim(), join(dir, 'tini'))
      const reaper = spawn(
        join(dir, 'tini'),
        [
          '-c',
          'import ctypes, subprocess\nassert ctypes.CDLL(None).prctl(36, 1, 0, 0, 0) == 0\nsubprocess.run(["bash", "-c", "sleep 0.5; (setsid sh -c \'sleep 2\' >/dev/null 2>&1 &); sleep 3"])',
        ],
        { stdio: 'ignore' },
      )
      await sleep(200)
      const host = Number(readFileSync(`/proc/${reaper.pid}/task/${reaper.pid}/children`, 'utf8').trim().split(' ')[0])
      const procs = new ModelProcesses(host)
      procs.open()
      await sleep(900)
      expect(procs.scan()).toBeGreaterThanOrEqual(1)
      reaper.kill('SIGKILL')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a process that started before the window is not the model’s', () => {
    const procs = new ModelProcesses()
    procs.open()
    // pid 1 and this process are older than the window.
    expect(procs.scan()).toBe(0)
  })
})
