import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const LOCK_HOLDER = fileURLToPath(new URL('./lock-holder.ts', import.meta.url))

/** A child that prints lines and answers one-line commands on stdin (lock-holder.ts, memory's engine-holder.ts). */
export interface Holder {
  child: ChildProcess
  /** The first line printed from now on that starts with one of `prefixes` (call it before the line can arrive). */
  next: (...prefixes: string[]) => Promise<string>
  send: (command: string) => void
  done: Promise<number | null>
  stderr: () => string
}

/** Spawns lock-holder.ts: takes the lock at `lockPath`, prints `READY`, then obeys stdin. */
export function spawnLockHolder(lockPath: string, staleMs: number, purpose = 'holder'): Holder {
  return spawnHolder([LOCK_HOLDER, lockPath, String(staleMs), purpose])
}

/** Spawns a worker script with the same node that runs the tests (Node 24 runs .ts directly). */
export function spawnHolder(args: string[]): Holder {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] })
  const waiting: Array<{ prefixes: string[]; resolve: (line: string) => void }> = []
  let err = ''
  onLines(child, (line) => {
    const i = waiting.findIndex((w) => w.prefixes.some((p) => line.startsWith(p)))
    if (i >= 0) waiting.splice(i, 1)[0]!.resolve(line)
  })
  child.stderr!.setEncoding('utf8')
  child.stderr!.on('data', (d: string) => {
    err += d
  })
  const done = new Promise<number | null>((r) =>
    child.on('close', (code) => {
      for (const w of waiting.splice(0)) w.resolve(`EXITED ${code} ${err}`)
      r(code)
    }),
  )
  return {
    child,
    next: (...prefixes) =>
      new Promise((resolve) => {
        waiting.push({ prefixes, resolve })
      }),
    send: (command) => {
      child.stdin!.write(`${command}\n`)
    },
    done,
    stderr: () => err,
  }
}

/** Calls `onLine` for every line the child prints on stdout. */
export function onLines(child: ChildProcess, onLine: (line: string) => void): void {
  let buf = ''
  child.stdout!.setEncoding('utf8')
  child.stdout!.on('data', (d: string) => {
    buf += d
    let nl: number
    while ((nl = buf.indexOf('\n')) >= 0) {
      onLine(buf.slice(0, nl))
      buf = buf.slice(nl + 1)
    }
  })
}
