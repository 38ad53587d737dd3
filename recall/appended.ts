import { createHash, type Hash } from 'node:crypto'
import { decodeUtf8 } from '../memory/files.ts'
import { endOfLastClosedComment } from '../memory/format.ts'

/**
 * A day file as the keeper last read it, so that when the file has only grown the next read parses just
 * what came after (decision 325): the byte length of its head — the text up to the end of its last comment
 * line that ends with a newline, whose parse nothing after it can change — the SHA-256 of those bytes, and
 * the ids of the entries after the head (at most one: a comment line at the very end, without its newline).
 */
export interface HeadMark {
  cut: number
  sha256: string
  tailIds: string[]
}

/** Bytes in the middle of a file, where EF BB BF is a character as any other. */
const fromMiddle = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** The file's text after a head that is still the one marked, and the hash of that head so far; undefined when the head changed. */
export function afterMarkedHead(bytes: Uint8Array, mark: HeadMark): { text: string; head: Hash } | undefined {
  if (bytes.length < mark.cut) return undefined
  const head = createHash('sha256').update(bytes.subarray(0, mark.cut))
  if (head.copy().digest('hex') !== mark.sha256) return undefined
  if (mark.cut === 0) {
    // From the file's start, read as the whole file is (a BOM there is no text).
    const { text, valid } = decodeUtf8(bytes)
    return valid ? { text, head } : undefined
  }
  try {
    return { text: fromMiddle.decode(bytes.subarray(mark.cut)), head }
  } catch {
    return undefined
  }
}

/**
 * The mark of a file whose bytes from `from` on decode exactly to `text` (`headSoFar`: the hash of the bytes
 * before `from`); `idsAfter` gives the ids of the entries of a piece of text. Undefined when the file's ids
 * repeat, since the last of a repeated id is the one kept and a head read alone could not tell which that is.
 */
export function headMarkOf(bytes: Uint8Array, from: number, text: string, headSoFar: Hash, idsAfter: (text: string) => string[]): HeadMark | undefined {
  const cutInText = endOfLastClosedComment(text)
  const cut = bytes.length - Buffer.byteLength(text.slice(cutInText))
  if (cut < from) return undefined
  headSoFar.update(bytes.subarray(from, cut))
  return { cut, sha256: headSoFar.digest('hex'), tailIds: idsAfter(text.slice(cutInText)) }
}

/** A fresh hash for a file read whole (its head starts at byte 0). */
export function emptyHead(): Hash {
  return createHash('sha256')
}

/** A mark as the cache holds it (`[cut, sha256, tailIds]`), or undefined when the row holds none or one of another shape. */
export function headMarkFromRow(row: readonly unknown[]): HeadMark | undefined {
  const [cut, sha256, tailIds] = row
  if (!Number.isSafeInteger(cut) || (cut as number) < 0 || typeof sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(sha256)) return undefined
  if (!Array.isArray(tailIds) || tailIds.length > 1 || !tailIds.every((id) => typeof id === 'string')) return undefined
  return { cut: cut as number, sha256, tailIds: tailIds as string[] }
}

export function headMarkRow(mark: HeadMark): unknown[] {
  return [mark.cut, mark.sha256, mark.tailIds]
}
