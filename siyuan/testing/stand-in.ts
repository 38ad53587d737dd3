import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A loopback stand-in for the SiYuan kernel (the real one cannot run here):
 * only the endpoints the sync calls, answering as the kernel source does
 * (github.com/siyuan-note/siyuan; every behaviour below names the file it
 * was read from). Anything else is 404. Test switches: a slow kernel, the
 * next calls failing inside (`failNext`), read-only mode, a reader role
 * (403), `lsNotebooks` failing inside (code 0, data null), a notebook
 * closed or a document removed by the person, stop and start on the same port.
 */
export interface StandInDoc {
  id: string
  notebook: string
  hpath: string
  markdown: string
}

export interface StandInNotebook {
  name: string
  closed: boolean
}

// kernel/util/net.go InvalidIDPattern → lute's node id pattern: 14 digits, '-', 7 of [0-9a-z].
const ID_PATTERN = /^\d{14}-[0-9a-z]{7}$/
// Go's strings.TrimSpace (unicode.IsSpace): ASCII space, \t\n\v\f\r, U+0085, U+00A0, and the Zs/line/paragraph separators; not U+FEFF.
const GO_SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]'
const goTrim = (s: string) => s.replace(new RegExp(`^${GO_SPACE}+|${GO_SPACE}+$`, 'g'), '')

let counter = 0
function siyuanId(): string {
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14)
  counter += 1
  return `${stamp}-${counter.toString(36).padStart(7, '0')}`
}

/** kernel/model/tree.go ErrTreeNotFound: what loading a removed (or closed-notebook) document's tree fails with. */
const TREE_NOT_FOUND = 'tree not found'

class Refusal extends Error {
  readonly data: unknown
  constructor(message: string, data: unknown = null) {
    super(message)
    this.data = data
  }
}

export class SiyuanStandIn {
  readonly token: string
  readonly notebooks = new Map<string, StandInNotebook>()
  readonly docs = new Map<string, StandInDoc>()
  readonly calls: Array<{ endpoint: string; body: Record<string, unknown> }> = []
  delayMs = 0
  /** util.ReadOnly (kernel/model/session.go CheckReadonly). */
  readOnly = false
  /** A session whose role is not administrator (kernel/model/session.go CheckAdminRole → bare 403). */
  readerRole = false
  /** model.ListNotebooks failing inside: kernel/api/notebook.go lsNotebooks then answers code 0 with data null. */
  listFails = false
  private refuse = 0
  private refuseOnly: string | undefined
  private inFlight = 0
  private server: Server | undefined
  port = 0

  constructor(token: string) {
    this.token = token
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`
  }

  /** The next `n` calls fail inside the kernel: HTTP 200, `code: -1` (any handler's `ret.Code = -1` on an error). */
  failNext(n: number, endpoint?: string): void {
    this.refuse = n
    this.refuseOnly = endpoint
  }

  docsAt(hpath: string): StandInDoc[] {
    return [...this.docs.values()].filter((d) => d.hpath === hpath)
  }

  /** A notebook the person made in SiYuan (not through the API). */
  addNotebook(name: string, closed = false): string {
    const id = siyuanId()
    this.notebooks.set(id, { name, closed })
    return id
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
    const send = (status: number, body?: unknown) => {
      if (body === undefined) {
        res.writeHead(status)
        res.end()
        return
      }
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    let text = ''
    for await (const chunk of req) text += String(chunk)
    if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs))
    const endpoint = req.url ?? ''
    const route = req.method === 'POST' ? ROUTES[endpoint] : undefined
    if (route === undefined) return send(404, { code: -1, msg: 'not found', data: null })
    // kernel/model/session.go CheckAuth: a wrong `Token …` header is 401 with {code:-1, msg} (no data field).
    if (req.headers.authorization !== `Token ${this.token}`) return send(401, { code: -1, msg: 'Auth failed [header: Authorization]' })
    // kernel/api/router.go: the writing endpoints pass CheckAdminRole (AbortWithStatus 403: no body) then CheckReadonly.
    if (route.admin && this.readerRole) return send(403)
    if (route.admin && this.readOnly) {
      // kernel/model/session.go CheckReadonly: 200, code -1, Language(34) (app/appearance/langs/en.json), data {closeTimeout: 5000}.
      return send(200, { code: -1, msg: 'This operation is not supported in read-only mode', data: { closeTimeout: 5000 } })
    }
    let body: Record<string, unknown>
    try {
      body = JSON.parse(text) as Record<string, unknown>
    } catch (error) {
      // kernel/util/net.go JsonArg.
      return send(200, { code: -1, msg: `Parses request [${endpoint}] failed: ${(error as Error).message}`, data: null })
    }
    this.calls.push({ endpoint, body })
    if (this.refuse > 0 && (this.refuseOnly === undefined || this.refuseOnly === endpoint)) {
      this.refuse -= 1
      return send(200, { code: -1, msg: 'the kernel is busy', data: null })
    }
    try {
      send(200, { code: 0, msg: '', data: this[route.handler](body) })
    } catch (error) {
      if (!(error instanceof Refusal)) throw error
      send(200, { code: -1, msg: error.message, data: error.data })
    }
  }

  /** kernel/util/net.go ParseJsonArg with required + rejectEmpty: the value comes back trimmed. */
  private need(body: Record<string, unknown>, key: string): string {
    const v = body[key]
    if (v === undefined || v === null) throw new Refusal(`Field [${key}] is required`)
    if (typeof v !== 'string') throw new Refusal(`Field [${key}] should be of type [String]`)
    if (goTrim(v) === '') throw new Refusal(`Field [${key}] must not be empty`)
    return goTrim(v)
  }

  /** kernel/util/net.go InvalidIDPattern. */
  private id(v: unknown): string {
    if (typeof v !== 'string' || !ID_PATTERN.test(v)) throw new Refusal('invalid ID argument')
    return v
  }

  /** kernel/model/conf.go Box(): only opened notebooks are found. */
  private opened(id: string): boolean {
    return this.notebooks.get(id)?.closed === false
  }

  /** A document the kernel can load: kernel/model/mount.go unmount0 → Unindex drops a closed notebook's block tree. */
  private loadable(id: string): StandInDoc | undefined {
    const doc = this.docs.get(id)
    return doc !== undefined && this.opened(doc.notebook) ? doc : undefined
  }

  lsNotebooks(): unknown {
    // kernel/api/notebook.go lsNotebooks: closed notebooks are listed too (closed: true); a failure inside returns before data is set.
    if (this.listFails) return null
    // A read-only role sees only open notebooks (the same handler filters closed ones for it).
    const visible = [...this.notebooks].filter(([, n]) => !(this.readerRole && n.closed))
    return {
      notebooks: visible.map(([id, n], sort) => ({ id, name: n.name, icon: '', sort, closed: n.closed })),
      boxDocEnabled: false,
    }
  }

  createNotebook(b: Record<string, unknown>): unknown {
    // kernel/api/notebook.go createNotebook: name required and not blank; the new notebook is mounted (opened).
    const name = this.need(b, 'name')
    const id = siyuanId()
    this.notebooks.set(id, { name, closed: false })
    return { notebook: { id, name, icon: '', sort: 0, closed: false } }
  }

  createDocWithMd(b: Record<string, unknown>): unknown {
    // kernel/api/filetree.go createDocWithMd: the notebook id must match the id pattern.
    const notebook = this.id(b.notebook)
    if (typeof b.path !== 'string' || typeof b.markdown !== 'string') throw new Refusal('interface conversion: interface {} is nil, not string')
    // kernel/model/file.go CreateWithMarkdown: a closed or unknown notebook is Language(0).
    if (!this.opened(notebook)) throw new Refusal('Query notebook failed')
    // kernel/api/filetree.go createDocWithMd: line breaks, U+2028/9, tabs and slashes are removed from the last
    // segment, which is cut to 512 characters; path.Join cleans the path; a leading / is added.
    const parts = b.path.split('/')
    const last = (parts.pop() ?? '').replace(/\r\n|\r|\n|\u2028|\u2029|\t|\//g, '')
    let hpath = cleanPath([...parts, [...last].slice(0, 512).join('')].join('/'))
    if (!hpath.startsWith('/')) hpath = `/${hpath}`
    // kernel/model/path.go createDocsByHPath: a trailing .sy is dropped and every segment trimmed (util/path.go TrimSpaceInPath);
    // the last segment always becomes a new document, even where one of that path exists.
    hpath = hpath.replace(/\.sy$/, '').split('/').map(goTrim).join('/')
    const id = siyuanId()
    this.docs.set(id, { id, notebook, hpath, markdown: b.markdown })
    return id
  }

  getIDsByHPath(b: Record<string, unknown>): unknown {
    // kernel/api/filetree.go getIDsByHPath: without path or notebook it returns before data is set (code 0, data null).
    if (b.path === undefined || b.path === null || b.notebook === undefined || b.notebook === null) return null
    const notebook = this.id(b.notebook)
    // kernel/model/file.go GetIDsByHPath: the hpath is looked up as given (no trimming), [] when none.
    return [...this.docs.values()].filter((d) => d.notebook === notebook && this.opened(notebook) && d.hpath === b.path).map((d) => d.id)
  }

  updateBlock(b: Record<string, unknown>): unknown {
    // kernel/api/block_op.go updateBlock: id pattern checked; a block whose tree is gone is "get block failed: " + the error
    // (kernel/model/block.go getBlock → kernel/model/tree.go loadTreeByBlockIDInBox: ErrTreeNotFound).
    if (typeof b.data !== 'string' || typeof b.dataType !== 'string') throw new Refusal('interface conversion: interface {} is nil, not string')
    const id = this.id(b.id)
    const doc = this.loadable(id)
    if (doc === undefined) throw new Refusal(`get block failed: ${TREE_NOT_FOUND}`)
    doc.markdown = b.data
    return [{ doOperations: [{ action: 'appendInsert', id: '', data: '', parentID: id, previousID: '', retData: null }], undoOperations: null }]
  }

  removeDocByID(b: Record<string, unknown>): unknown {
    // kernel/api/filetree.go removeDocByID: id pattern checked; a removed document is the tree error with data {closeTimeout: 7000}.
    const id = this.id(b.id)
    if (this.loadable(id) === undefined) throw new Refusal(TREE_NOT_FOUND, { closeTimeout: 7000 })
    this.docs.delete(id)
    return null
  }
}

/** Go's path.Clean for the absolute paths sent here: no empty, '.' or '..' segments, no trailing slash. */
function cleanPath(p: string): string {
  const out: string[] = []
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue
    if (seg === '..') out.pop()
    else out.push(seg)
  }
  return `/${out.join('/')}`
}

type Handler = 'lsNotebooks' | 'createNotebook' | 'createDocWithMd' | 'getIDsByHPath' | 'updateBlock' | 'removeDocByID'
/** kernel/api/router.go: which middleware each endpoint passes (admin = CheckAdminRole + CheckReadonly). */
const ROUTES: Record<string, { handler: Handler; admin: boolean }> = {
  '/api/notebook/lsNotebooks': { handler: 'lsNotebooks', admin: false },
  '/api/notebook/createNotebook': { handler: 'createNotebook', admin: true },
  '/api/filetree/createDocWithMd': { handler: 'createDocWithMd', admin: true },
  '/api/filetree/getIDsByHPath': { handler: 'getIDsByHPath', admin: false },
  '/api/block/updateBlock': { handler: 'updateBlock', admin: true },
  '/api/filetree/removeDocByID': { handler: 'removeDocByID', admin: true },
}
