import type { IncomingMessage, ServerResponse } from 'node:http'

/**
 * A refusal the caller can act on; its message is safe to show (no paths beyond the store's, no stack).
 * `code` and `data` (answers.ts) let the page word it in its own language.
 */
export class PanelError extends Error {
  readonly status: number
  readonly code: string | undefined
  /** More fields of the answer (the data the page words it with, a confirmation it must ask for). */
  readonly data: Record<string, unknown>
  constructor(status: number, message: string, code?: string, data: Record<string, unknown> = {}) {
    super(message)
    this.status = status
    this.code = code
    this.data = data
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'content-length': Buffer.byteLength(text),
  })
  res.end(text)
}

/** Reads a JSON object body of at most `maxBytes`; anything else is a PanelError (413 or 400). */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<Record<string, unknown>> {
  const declared = Number(req.headers['content-length'] ?? '0')
  if (Number.isFinite(declared) && declared > maxBytes) throw new PanelError(413, `the request body is over ${maxBytes} bytes`)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > maxBytes) throw new PanelError(413, `the request body is over ${maxBytes} bytes`)
    chunks.push(chunk)
  }
  let value: unknown
  try {
    value = JSON.parse(Buffer.concat(chunks).toString('utf8'))
  } catch {
    throw new PanelError(400, 'the request body is not valid JSON')
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new PanelError(400, 'the request body must be a JSON object')
  return value as Record<string, unknown>
}
