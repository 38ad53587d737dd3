import { randomInt, timingSafeEqual } from 'node:crypto'

/**
 * The settings page's secret (CONTRACT#pairing). DSH web does not authenticate
 * its own `/api` or a plugin's routes (only a Host/Origin/JSON fence against
 * other browser pages), so anything the host hands to the page over HTTP a
 * shell on the same machine can fetch the same way. The one channel it cannot
 * read is the person: a pairing code the host shows in the terminal DSH runs
 * in, which the person types into the page once per page load. Every POST
 * carries it; a wrong one counts, and after a few the code is replaced (and
 * shown again), so guessing it from a shell does not work.
 */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'
const LENGTH = 10
export const MAX_WRONG = 5
export const PAIRING_HEADER = 'x-cyrene-pairing'

function freshCode(): string {
  let out = ''
  for (let i = 0; i < LENGTH; i++) out += ALPHABET[randomInt(ALPHABET.length)]
  return `${out.slice(0, 5)}-${out.slice(5)}`
}

const normalise = (text: string): string => text.toUpperCase().replace(/[\s-]/g, '')

export type PairingVerdict = 'ok' | 'missing' | 'wrong'

export class PanelPairing {
  private code = freshCode()
  private wrong = 0
  /** How many times the code was replaced after wrong guesses (the doctor and the tests read it). */
  rotations = 0
  /** Whether the code was shown where the person can read it (otherwise the doctor says the page is read-only). */
  shown: boolean
  private readonly show: (code: string, why: 'start' | 'replaced') => boolean | void

  constructor(show: (code: string, why: 'start' | 'replaced') => boolean | void) {
    this.show = show
    this.shown = show(this.code, 'start') !== false
  }

  /** The code now; for the in-process tests, which stand where the person reads the terminal. */
  current(): string {
    return this.code
  }

  check(given: string | string[] | undefined): PairingVerdict {
    if (typeof given !== 'string' || given.trim() === '') return 'missing'
    const a = Buffer.from(normalise(given))
    const b = Buffer.from(normalise(this.code))
    if (a.length === b.length && timingSafeEqual(a, b)) return 'ok'
    if (++this.wrong >= MAX_WRONG) {
      this.code = freshCode()
      this.wrong = 0
      this.rotations++
      this.shown = this.show(this.code, 'replaced') !== false
    }
    return 'wrong'
  }
}

/**
 * Where the code is shown: DSH's own stderr, and only when it is a terminal
 * (a log file the model can read would hand the code over), unless the person
 * started DSH with CYRENE_PAIRING_STDERR=1 (DSH under a service manager whose
 * log only they read).
 */
export function terminalShow(env: NodeJS.ProcessEnv, stream: NodeJS.WriteStream = process.stderr): (code: string, why: 'start' | 'replaced') => boolean {
  return (code, why) => {
    if (stream.isTTY !== true && env.CYRENE_PAIRING_STDERR !== '1') return false
    const lead =
      why === 'start'
        ? '昔涟设置页配对码 / Cyrene settings pairing code'
        : '昔涟设置页配对码已更换（猜错太多次）/ Cyrene settings pairing code replaced after wrong guesses'
    stream.write(`${lead}: ${code}\n`)
    return true
  }
}
