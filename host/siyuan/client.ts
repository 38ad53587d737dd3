/**
 * The few SiYuan kernel endpoints the sync uses (its documented HTTP API:
 * POST + JSON, `Authorization: Token …`, answers `{code, msg, data}` where a
 * failure may arrive as HTTP 200 with `code != 0`). The token is only ever
 * put in the header; no error message carries it.
 */
export class SiyuanError extends Error {
  /** Worth trying again later (network, timeout, 5xx); a refusal (401, code != 0) is not retried before the next run. */
  readonly retryable: boolean
  constructor(message: string, retryable: boolean) {
    super(message)
    this.retryable = retryable
  }
}

export interface SiyuanConfig {
  url: string
  token: string
  timeoutMs: number
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
      const why = (error as Error).name === 'TimeoutError' ? `no answer in ${this.config.timeoutMs} ms` : 'not reachable'
      throw new SiyuanError(`SiYuan at ${this.config.url} is ${why}`, true)
    }
    if (res.status === 401 || res.status === 403) throw new SiyuanError('SiYuan refused the token (HTTP 401); check the token variable', false)
    if (res.status !== 200) throw new SiyuanError(`SiYuan answered HTTP ${res.status} to ${endpoint}`, res.status >= 500)
    let answer: { code?: unknown; msg?: unknown; data?: unknown }
    try {
      answer = (await res.json()) as typeof answer
    } catch {
      throw new SiyuanError(`SiYuan's answer to ${endpoint} is not JSON`, true)
    }
    if (answer.code !== 0) throw new SiyuanError(`SiYuan refused ${endpoint}: ${String(answer.msg ?? answer.code).slice(0, 200)}`, true)
    return answer.data as T
  }

  async notebooks(): Promise<Array<{ id: string; name: string; closed: boolean }>> {
    return (await this.call<{ notebooks?: Array<{ id: string; name: string; closed: boolean }> }>('/api/notebook/lsNotebooks', {})).notebooks ?? []
  }

  async createNotebook(name: string): Promise<string> {
    return (await this.call<{ notebook: { id: string } }>('/api/notebook/createNotebook', { name })).notebook.id
  }

  async createDoc(notebook: string, path: string, markdown: string): Promise<string> {
    return await this.call<string>('/api/filetree/createDocWithMd', { notebook, path, markdown })
  }

  async idsByHPath(notebook: string, path: string): Promise<string[]> {
    return (await this.call<string[] | null>('/api/filetree/getIDsByHPath', { notebook, path })) ?? []
  }

  async updateDoc(id: string, markdown: string): Promise<void> {
    await this.call('/api/block/updateBlock', { id, dataType: 'markdown', data: markdown })
  }

  async removeDoc(id: string): Promise<void> {
    await this.call('/api/filetree/removeDocByID', { id })
  }
}
