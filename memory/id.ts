import { randomBytes } from 'node:crypto'

/**
 * Entry ids: `YYYYMMDDTHHMMSSmmmZ-<pid36>-<rand4><seq36>`, e.g.
 * `20261129T193051123Z-1k3-q7x900`.
 *
 * * The UTC timestamp prefix makes plain string order time order.
 * * pid (base 36) separates processes alive at the same time; the four random
 *   base-36 characters separate processes that reused a pid, or two machines
 *   sharing one store through a sync tool.
 * * `seq` (per process, base 36, at least 2 digits) separates ids minted in the
 *   same millisecond by the same process and keeps their order.
 *
 * Ids are never used to build file paths.
 */
export const ID_RE = /^\d{8}T\d{9}Z-[0-9a-z]{1,8}-[0-9a-z]{6,}$/

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz'
const processTag = (() => {
  const bytes = randomBytes(4)
  let s = ''
  for (const b of bytes) s += ALPHABET[b % 36]
  return s
})()
let seq = 0

function timestampPart(at: Date): string {
  const iso = at.toISOString() // 2026-11-29T19:30:51.123Z
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}${iso.slice(20, 23)}Z`
}

export function newId(at: Date = new Date(), pid: number = process.pid): string {
  seq += 1
  return `${timestampPart(at)}-${pid.toString(36)}-${processTag}${seq.toString(36).padStart(2, '0')}`
}

/** An id is acceptable in a file if it is a non-empty single line without control characters. */
export function isUsableId(id: unknown): id is string {
  // eslint-disable-next-line no-control-regex
  return typeof id === 'string' && id.trim() !== '' && id.length <= 200 && !/[\u0000-\u001f\u007f]/.test(id)
}
