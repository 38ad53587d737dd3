import { randomInt, timingSafeEqual } from 'node:crypto'

/**
 * The settings page's secret (CONTRACT#pairing). DSH web does not authenticate
 * its own `/api` or a plugin's routes (only a Host/Origin/JSON fence against
 * other browser pages), so anything the host hands to the page over HTTP a
 * shell on the same machine can fetch the same way. The one channel it cannot
 * read is the person: a pairing code the host shows in the terminal DSH runs
 * in, which the person types into the page once per page load. Every POST
 * carries it. A wrong one is counted and changes nothing else: ten characters
 * of 31 are about 2^49 codes, out of reach of guessing at any rate a shell can
 * send them, and replacing the code after a few wrong ones let a shell lock the
 * person's page out and flood their terminal (decision 317).
 */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'
const LENGTH = 10
export const PAIRING_HEADER = 'x-cyrene-pairing'

function freshCode(): string {
  let out = ''
  for (let i = 0; i < LENGTH; i++) out += ALPHABET[randomInt(ALPHABET.length)]
  return `${out.slice(0, 5)}-${out.slice(5)}`
}

const normalise = (text: string): string => text.toUpperCase().replace(/[\s-]/g, '')

export type PairingVerdict = 'ok' | 'missing' | 'wrong'

export class PanelPairing {
  private readonly code = freshCode()
  /** How many wrong codes were sent since DSH started (the doctor warns: something tried to guess it). */
  wrongGuesses = 0
  /** Whether the code was shown where the person can read it (otherwise the doctor says the page is read-only). */
  readonly shown: boolean

  constructor(show: (code: string) => boolean | void) {
    this.shown = show(this.code) !== false
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
    this.wrongGuesses++
    return 'wrong'
  }
}

/**
 * Where the code is shown: DSH's own stderr, and only when it is a terminal
 * (a log file the model can read would hand the code over), unless the person
 * started DSH with CYRENE_PAIRING_STDERR=1 (DSH under a service manager whose
 * log only they read).
 */
export function terminalShow(env: NodeJS.ProcessEnv, stream: NodeJS.WriteStream = process.stderr): (code: string) => boolean {
  return (code) => {
    if (stream.isTTY !== true && env.CYRENE_PAIRING_STDERR !== '1') return false
    stream.write(`昔涟设置页配对码 / Cyrene settings pairing code: ${code}\n`)
    return true
  }
}
