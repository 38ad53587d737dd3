/**
 * The few SiYuan kernel endpoints the sync uses (its HTTP API: POST + JSON,
 * `Authorization: Token …`, answers `{code, msg, data}` where a failure
 * arrives as HTTP 200 with `code != 0`). The token is only ever put in the
 * header; no error message carries it. How each answer is read follows the
 * kernel source (siyuan-note/siyuan kernel/api, kernel/model): see
 * testing/stand-in.ts, which answers the same way.
 */

/**
 * What a failure means for the sync:
 * * `unreachable`: network, timeout, 5xx, not JSON, a kernel that failed inside — tried again with backoff;
 * * `denied`: 401 / 403 or read-only mode — nothing will go through until the person changes SiYuan; not retried;
 * * `gone`: the document is no longer in SiYuan (removed, or its notebook closed) — the sync re-creates or forgets it;
 * * `refused`: any other `code != 0` for this one call — the file is set aside until it changes.
 */
export type SiyuanFailure = 'unreachable' | 'denied' | 'gone' | 'refused'

/** What went wrong, as a code the person's catalogue words (`siyuan.error.<code>`, siyuan/report-text.ts); the message is its English. */
export interface SiyuanErrorSaid {
  code: 'timeout' | 'unreachable' | 'token' | 'forbidden' | 'http' | 'not-json' | 'refused' | 'read-only' | 'no-list' | 'no-notebook' | 'no-doc'
  params: Record<string, string | number>
}

export class SiyuanError extends Error {
  readonly kind: SiyuanFailure
  readonly said: SiyuanErrorSaid | undefined
  constructor(message: string, kind: SiyuanFailure, said?: SiyuanErrorSaid) {
    super(message)
    this.kind = kind
    this.said = said
  }
  /** Worth trying again after a backoff. */
  get retryable(): boolean {
    return this.kind === 'unreachable'
  }
}

export interface SiyuanConfig {
  url: string
  token: string
  timeoutMs: number
}

export interface SiyuanNotebook {
  id: string
  name: string
  closed: boolean
}

// kernel/model/tree.go ErrTreeNotFound / ErrBlockNotFound (Go error texts, never translated).
const GONE = /(^|: )(tree not found|block not found)$/
// kernel/model/tree.go ErrIndexing: the kernel is rebuilding its index; the same call works later.
const BUSY = /(^|: )indexing$/
// kernel/model/session.go CheckReadonly: translated text, so it is told by its data ({closeTimeout: 5000}) and the en / zh texts.
const READ_ONLY = /read-only mode|只读模式/

function classify(answer: { msg?: unknown; data?: unknown }): SiyuanFailure {
  const msg = typeof answer.msg === 'string' ? answer.msg : ''
  const data = answer.data as { closeTimeout?: unknown } | null | undefined
  if (READ_ONLY.test(msg) || (typeof data === 'object' && data !== null && data.closeTimeout === 5000)) return 'denied'
  if (GONE.test(msg)) return 'gone'
  if (BUSY.test(msg)) return 'unreachable'
  return 'refused'
}

export class SiyuanClient {
  private readonly config: SiyuanConfig
  constructor(config: SiyuanConfig) {
    this.config = config
  }

  private async call<T>(endpoint: string, body: unknown): Promise<T> {
    const url = `${this.config.url.replace(/\/$/, '')}${endpoint}`
    let res: Response
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Token ${this.config.token}` },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.config.timeoutMs),
      })
    } catch (error) {
      const url = this.config.url
      if ((error as Error).name === 'TimeoutError')
        throw new SiyuanError(`SiYuan at ${url} is no answer in ${this.config.timeoutMs} ms`, 'unreachable', {
          code: 'timeout',
          params: { url, ms: this.config.timeoutMs },
        })
      throw new SiyuanError(`SiYuan at ${url} is not reachable`, 'unreachable', { code: 'unreachable', params: { url } })
    }
    if (res.status === 401) throw new SiyuanError('SiYuan refused the token (HTTP 401); check the token variable', 'denied', { code: 'token', params: {} })
    if (res.status === 403)
      throw new SiyuanError(
        `SiYuan refused ${endpoint} (HTTP 403): it allows writing only to an administrator; use the API token from SiYuan's settings, not a reader's access`,
        'denied',
        { code: 'forbidden', params: { endpoint } },
      )
    if (res.status !== 200)
      throw new SiyuanError(`SiYuan answered HTTP ${res.status} to ${endpoint}`, res.status >= 500 ? 'unreachable' : 'refused', {
        code: 'http',
        params: { status: res.status, endpoint },
      })
    let answer: { code?: unknown; msg?: unknown; data?: unknown }
    try {
      answer = (await res.json()) as typeof answer
    } catch {
      throw new SiyuanError(`SiYuan's answer to ${endpoint} is not JSON`, 'unreachable', { code: 'not-json', params: { endpoint } })
    }
    if (answer.code !== 0) {
      const kind = classify(answer)
      const hint = kind === 'denied' ? ' (SiYuan is in read-only mode; turn it off in SiYuan to sync)' : ''
      const msg = String(answer.msg ?? answer.code).slice(0, 200)
      throw new SiyuanError(`SiYuan refused ${endpoint}: ${msg}${hint}`, kind, { code: kind === 'denied' ? 'read-only' : 'refused', params: { endpoint, msg } })
    }
    return answer.data as T
  }

  /** Every notebook, closed ones included (they come with `closed: true`). */
  async notebooks(): Promise<SiyuanNotebook[]> {
    const data = await this.call<{ notebooks?: unknown } | null>('/api/notebook/lsNotebooks', {})
    // kernel/api/notebook.go lsNotebooks answers code 0 with data null when listing fails inside.
    if (data === null || typeof data !== 'object' || !Array.isArray(data.notebooks))
      throw new SiyuanError('SiYuan could not list its notebooks (lsNotebooks answered without a list)', 'unreachable', { code: 'no-list', params: {} })
    return (data.notebooks as Array<Partial<SiyuanNotebook>>)
      .filter((n) => typeof n.id === 'string' && typeof n.name === 'string')
      .map((n) => ({ id: n.id as string, name: n.name as string, closed: n.closed === true }))
  }

  async createNotebook(name: string): Promise<string> {
    const data = await this.call<{ notebook?: { id?: unknown } } | null>('/api/notebook/createNotebook', { name })
    const id = data?.notebook?.id
    if (typeof id !== 'string')
      throw new SiyuanError('SiYuan made no notebook (createNotebook answered without an id)', 'unreachable', { code: 'no-notebook', params: {} })
    return id
  }

  async createDoc(notebook: string, path: string, markdown: string): Promise<string> {
    const id = await this.call<unknown>('/api/filetree/createDocWithMd', { notebook, path, markdown })
    if (typeof id !== 'string')
      throw new SiyuanError('SiYuan made no document (createDocWithMd answered without an id)', 'unreachable', { code: 'no-doc', params: {} })
    return id
  }

  async idsByHPath(notebook: string, path: string): Promise<string[]> {
    const ids = await this.call<unknown>('/api/filetree/getIDsByHPath', { notebook, path })
    return Array.isArray(ids) ? ids.filter((x): x is string => typeof x === 'string') : []
  }

  async updateDoc(id: string, markdown: string): Promise<void> {
    await this.call('/api/block/updateBlock', { id, dataType: 'markdown', data: markdown })
  }

  async removeDoc(id: string): Promise<void> {
    await this.call('/api/filetree/removeDocByID', { id })
  }
}
