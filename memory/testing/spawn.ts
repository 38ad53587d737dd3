import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { onLines, spawnHolder, type Holder } from '../../durable/testing/spawn.ts'

export const WRITER = fileURLToPath(new URL('./writer.ts', import.meta.url))
export const ENGINE_HOLDER = fileURLToPath(new URL('./engine-holder.ts', import.meta.url))

export interface Worker {
  child: ChildProcess
  acks: Map<string, string>
  ready: Promise<void>
  firstAck: Promise<void>
  /** The worker holds the write lock and has read the file (only with `pauseAfterReadMs`). */
  holding: Promise<void>
  done: Promise<number | null>
  stderr: () => string
}

/** See writer.ts for what these do. */
export interface WriterOptions {
  staleMs?: number
  holdLog?: string
  pauseAfterReadMs?: number
}

/** Spawns writer.ts with the same node that runs the tests (Node 24 runs .ts directly). */
export function spawnWriter(home: string, count: number | 'forever', tag: string, opts: WriterOptions = {}): Worker {
  const args = [WRITER, home, String(count), tag]
  if (opts.staleMs !== undefined) args.push('--stale-ms', String(opts.staleMs))
  if (opts.holdLog !== undefined) args.push('--hold-log', opts.holdLog)
  if (opts.pauseAfterReadMs !== undefined) args.push('--pause-after-read-ms', String(opts.pauseAfterReadMs))
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  const acks = new Map<string, string>()
  let err = ''
  const ready = signal()
  const firstAck = signal()
  const holding = signal()
  onLines(child, (line) => {
    if (line === 'READY') ready.fire()
    if (line === 'HOLDING') holding.fire()
    const m = /^ACK (\S+) (.*)$/.exec(line)
    if (m !== null) {
      acks.set(m[1]!, m[2]!)
      firstAck.fire()
    }
  })
  child.stderr!.setEncoding('utf8')
  child.stderr!.on('data', (d: string) => {
    err += d
  })
  const done = new Promise<number | null>((r) =>
    child.on('close', (code) => {
      ready.fire()
      firstAck.fire()
      holding.fire()
      r(code)
    }),
  )
  return { child, acks, ready: ready.promise, firstAck: firstAck.promise, holding: holding.promise, done, stderr: () => err }
}

/** Spawns engine-holder.ts: opens the engine for `home`, prints `READY`, then waits. */
export function spawnEngineHolder(home: string, staleMs?: number): Holder {
  return spawnHolder([ENGINE_HOLDER, home, ...(staleMs === undefined ? [] : [String(staleMs)])])
}

function signal(): { promise: Promise<void>; fire: () => void } {
  let fire: () => void = () => {}
  const promise = new Promise<void>((r) => {
    fire = r
  })
  return { promise, fire }
}
