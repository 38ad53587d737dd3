// Cheap, stable content hashes so the store can tell whether a cached index still
// describes the files, without re-tokenizing anything. Not cryptographic.

/** 53-bit string hash (cyrb53), as 14 hex digits. */
export function hashString(text: string, seed = 0): string {
  let h1 = 0xdeadbeef ^ seed
  let h2 = 0x41c6ce57 ^ seed
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ ch, 2654435761)
    h2 = Math.imul(h2 ^ ch, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0')
}

export interface FingerprintedFields {
  id: string
  text: string
  at: string
  source: string
  kind?: string | undefined
  links?: readonly string[] | undefined
}

/** Fingerprint of everything about a document that recall reads. */
export function fingerprintDoc(doc: FingerprintedFields): string {
  const links = doc.links === undefined ? '' : doc.links.join('\u0001')
  return hashString([doc.id, doc.at, doc.source, doc.kind ?? '', links, doc.text].join('\u0000'))
}

/** One fingerprint for a whole set, independent of order: the (id, fingerprint) pairs sorted by id. */
export function fingerprintSet(pairs: Iterable<readonly [id: string, fingerprint: string]>): string {
  const sorted = [...pairs].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  return hashString(sorted.map(([id, fp]) => `${id}\u0000${fp}`).join('\n'))
}
