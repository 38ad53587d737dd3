/** Small, total helpers for reading untrusted JSON shapes. */

export type JsonRecord = Record<string, unknown>

/** JSON.rawJSON / JSON.isRawJSON (ES2025; in Node since 21), not yet in the TypeScript lib this project builds with. */
const RAW = JSON as JSON & { rawJSON(text: string): object; isRawJSON(value: unknown): boolean }

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !RAW.isRawJSON(value)
}

/** Parses JSON text; any failure is reported as `ok: false` instead of thrown. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) }
  }
}

/**
 * Parses a file this module writes back (config.json, spec §2.6: keys it does
 * not know pass through as they are). A number whose text JSON.stringify would
 * not give back (`12345678901234567890`, `1e400`, `1.50`) is kept as its own
 * text, so the write-back does not round it, turn it into `null` or reformat it.
 * Such a value is neither a record nor an array here; `copyJson` keeps it.
 */
export function parseJsonExact(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    const keep = (_key: string, value: unknown, context?: { source?: string }): unknown =>
      typeof value === 'number' && context?.source !== undefined && JSON.stringify(value) !== context.source ? RAW.rawJSON(context.source) : value
    return { ok: true, value: JSON.parse(text, keep) as unknown }
  } catch {
    // the reviver walk recurses: a structure nested a few thousand deep is read as plain JSON (and an invalid text says why)
    return parseJson(text)
  }
}

/** A deep copy of JSON data that keeps the exact numbers of `parseJsonExact` (cloneJson would round them). */
export function copyJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => copyJson(item)) as T
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copyJson(v)])) as T
  return value
}

/** The on-disk form this module writes: two-space indent and a final newline. */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n'
}

/** A deep copy of plain JSON data, so callers can mutate results without touching inputs. */
export function cloneJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T
}

/** Structural equality of JSON values; key order does not matter. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    return a.every((item, i) => jsonEqual(item, b[i]))
  }
  if (isRecord(a) && isRecord(b)) {
    const keysA = Object.keys(a).filter((k) => a[k] !== undefined)
    const keysB = Object.keys(b).filter((k) => b[k] !== undefined)
    if (keysA.length !== keysB.length) return false
    return keysA.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]))
  }
  return false
}

/**
 * A JSON file's text as people save it: UTF-8 (a byte-order mark dropped), or UTF-16 when it starts with
 * one (Windows Notepad's "Unicode"). Undefined for any other file holding a NUL byte: an image or other
 * binary, never JSON.
 */
export function jsonFileText(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2))
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2))
  if (bytes.includes(0)) return undefined
  return new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '')
}
