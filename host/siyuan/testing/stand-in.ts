import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A loopback stand-in for the SiYuan kernel (the real one cannot run here):
 * only the endpoints the sync uses, with their documented request and answer
 * fields; anything else is 404. It fails the way SiYuan does: a bad token is
 * HTTP 401, a bad request is HTTP 200 with `code: -1`, and it can be made slow,
 * made to refuse the next calls, or stopped and started again on the same port.
 * Like SiYuan's createDocWithMd, creating at a path that exists makes another
 * document, so a sync that creates twice is seen.
 */
export interface StandInDoc {
  id: string
  notebook: string
  hpath: string
  markdown: string
}

let counter = 0
function siyuanId(): string {
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14)
  counter += 1
  return `${stamp}-${counter.toString(36).padStart(7, '0')}`
}

export class SiyuanStandIn {
  readonly token: string
  readonly notebooks = new Map<string, string>()
  readonly docs = new Map<string, StandInDoc>()
  readonly calls: Array<{ endpoint: string; body: Record<string, unknown> }> = []
  delayMs = 0
  private refuse = 0
  private inFlight = 0
  private server: Server | undefined
  port = 0

  constructor(token: string) {
    this.token = token
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`
  }

  /** The next `n` calls answer HTTP 200 with `code: -1`, as SiYuan does when it cannot do something. */
  failNext(n: number): void {
    this.refuse = n
  }

  docsAt(hpath: string): StandInDoc[] {
    return [...this.docs.values()].filter((d) => d.hpath === hpath)
  }

  /** Resolves when no request is being answered (a slow one included). */
  async settled(): Promise<void> {
    while (this.inFlight > 0) await new Promise((r) => setTimeout(r, 20))
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res))
    await new Promise<void>((resolve) => this.server?.listen(this.port, '127.0.0.1', resolve))
    this.port = (this.server.address() as AddressInfo).port
  }

  async stop(): Promise<void> {
    const server = this.server
    this.server = undefined
    server?.closeAllConnections()
    await new Promise((resolve) => server?.close(resolve))
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.inFlight += 1
    try {
      await this.answer(req, res)
    } finally {
      this.inFlight -= 1
    }
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    let text = ''
    for await (const chunk of req) text += String(chunk)
    if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs))
    const handler = req.method === 'POST' ? this.endpoints[req.url ?? ''] : undefined
    if (handler === undefined) return send(404, { code: -1, msg: 'not found', data: null })
    if (req.headers.authorization !== `Token ${this.token}`) return send(401, { code: -1, msg: 'Auth failed', data: null })
    let body: Record<string, unknown>
    try {
      body = JSON.parse(text) as Record<string, unknown>
    } catch {
      return send(200, { code: -1, msg: 'parses request failed', data: null })
    }
    this.calls.push({ endpoint: req.url as string, body })
    if (this.refuse > 0) {
      this.refuse -= 1
      return send(200, { code: -1, msg: 'the kernel is busy', data: null })
    }
    try {
      send(200, { code: 0, msg: '', data: handler(body) })
    } catch (error) {
      send(200, { code: -1, msg: (error as Error).message, data: null })
    }
  }

  private need(body: Record<string, unknown>, key: string): string {
    const v = body[key]
    if (typeof v !== 'string' || v === '') throw new Error(`${key} is required`)
    return v
  }

  private readonly endpoints: Record<string, (body: Record<string, unknown>) => unknown> = {
    '/api/notebook/lsNotebooks': () => ({
      notebooks: [...this.notebooks].map(([id, name], sort) => ({ id, name, icon: '', sort, closed: false })),
    }),
    '/api/notebook/createNotebook': (b) => {
      const id = siyuanId()
      this.notebooks.set(id, this.need(b, 'name'))
      return { notebook: { id, name: b.name, icon: '', sort: 0, closed: false } }
    },
    '/api/filetree/createDocWithMd': (b) => {
      const notebook = this.need(b, 'notebook')
      if (!this.notebooks.has(notebook)) throw new Error(`notebook ${notebook} not found`)
      const hpath = this.need(b, 'path')
      if (!hpath.startsWith('/')) throw new Error('path must start with /')
      if (typeof b.markdown !== 'string') throw new Error('markdown is required')
      const id = siyuanId()
      this.docs.set(id, { id, notebook, hpath, markdown: b.markdown })
      return id
    },
    '/api/filetree/getIDsByHPath': (b) => {
      const notebook = this.need(b, 'notebook')
      const hpath = this.need(b, 'path')
      return [...this.docs.values()].filter((d) => d.notebook === notebook && d.hpath === hpath).map((d) => d.id)
    },
    '/api/block/updateBlock': (b) => {
      const doc = this.docs.get(this.need(b, 'id'))
      if (doc === undefined) throw new Error(`block ${String(b.id)} not found`)
      if (b.dataType !== 'markdown' && b.dataType !== 'dom') throw new Error('dataType must be markdown or dom')
      if (typeof b.data !== 'string') throw new Error('data is required')
      doc.markdown = b.data
      return [{ doOperations: [{ action: 'update', id: doc.id, data: '', parentID: '', previousID: '', retData: null }], undoOperations: null }]
    },
    '/api/filetree/removeDocByID': (b) => {
      const id = this.need(b, 'id')
      if (!this.docs.delete(id)) throw new Error(`document ${id} not found`)
      return null
    },
  }
}
