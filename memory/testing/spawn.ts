import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const WRITER = fileURLToPath(new URL('./writer.ts', import.meta.url))

export interface Worker { child: ChildProcess; acks: Map<string, string>; ready: Promise<void>; firstAck: Promise<void>; done: Promise<number | null>; stderr: () => string }

/** Spawns writer.ts with the same node that runs the tests (Node 24 runs .ts directly). */
export function spawnWriter(home: string, count: number | 'forever', tag: string): Worker {
  const child = spawn(process.execPath, [WRITER, home, String(count), tag], { stdio: ['ignore', 'pipe', 'pipe'] })
  const acks = new Map<string, string>()
  let buf = ''
  let err = ''
  let onReady: () => void = () => {}
  const ready = new Promise<void>((r) => { onReady = r })
  let onAck: () => void = () => {}
  const firstAck = new Promise<void>((r) => { onAck = r })
  child.stdout!.setEncoding('utf8')
  child.stdout!.on('data', (d: string) => {
    buf += d
    let nl: number
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl)
      buf = buf.slice(nl + 1)
      if (line === 'READY') onReady()
      const m = /^ACK (\S+) (.*)$/.exec(line)
      if (m !== null) { acks.set(m[1]!, m[2]!); onAck() }
    }
  })
  child.stderr!.setEncoding('utf8')
  child.stderr!.on('data', (d: string) => { err += d })
  const done = new Promise<number | null>((r) => child.on('close', (code) => { onReady(); onAck(); r(code) }))
  return { child, acks, ready, firstAck, done, stderr: () => err }
}
