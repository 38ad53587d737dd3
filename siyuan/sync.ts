import { readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { MemoryStore } from '../memory/index.ts'
import { walkFiles } from '../memory/files.ts'
import { LAYOUT } from '../memory/paths.ts'
import type { SyncReport, SyncState } from './types.ts'
import { SiyuanClient, SiyuanError } from './client.ts'
import { contentHash, docPath, isSynced, renderDoc } from './render.ts'

/** What the sync keeps between runs and restarts, in 元/siyuan-sync.json (no token in it). */
interface Ledger {
  url?: string
  notebook?: { name: string; id: string }
  /** Store file → the SiYuan document made from it and the hash of what was sent. */
  docs: Record<string, { id: string; hash: string }>
  /** Files whose change SiYuan has not taken yet (kept while it is down). */
  pending: string[]
  /** Files SiYuan refused (not a network failure): the hash refused and what it said; tried again once the file changes. */
  failed: Record<string, { hash: string; message: string }>
  lastRunAt?: string
  lastReport?: SyncReport
}

const LEDGER = 'siyuan-sync.json'
const ASIDE_PREFIX = `${LEDGER}.corrupt-`
/** The hash a removal is set aside under (no content hash looks like it). */
const REMOVED = '(removed)'
const MAX_PROBLEMS = 10

function isGone(error: SiyuanError): boolean {
  // kernel/util/net.go InvalidIDPattern: an id in the ledger SiYuan cannot take is as good as no document.
  return error.kind === 'gone' || error.message.endsWith('invalid ID argument')
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isLedgerShaped(value: unknown): boolean {
  if (!isRecord(value)) return false
  const { docs, pending, failed } = value
  return (docs === undefined || isRecord(docs)) && (pending === undefined || Array.isArray(pending)) && (failed === undefined || isRecord(failed))
}

function note(report: SyncReport, rel: string, message: string): void {
  report.failed = (report.failed ?? 0) + 1
  const problems = (report.problems ??= [])
  if (problems.length < MAX_PROBLEMS) problems.push(`${rel}: ${message}`)
}
const BACKOFF_MS = [1000, 2000, 5000, 15_000, 60_000]

export interface SyncOptions {
  env: NodeJS.ProcessEnv
  timeoutMs?: number
  /** Retries after a failure, delayed by `BACKOFF_MS` (tests shorten it). */
  backoffMs?: readonly number[]
}

/**
 * One-way mirror of the store into a SiYuan notebook: one document per store
 * file, at the same path. Runs are serial (one queue); each compares what the
 * files render to with the hash last sent, so a run with nothing new sends
 * nothing and a lost ledger finds the documents by path instead of making
 * second copies. Failures keep the files pending (on disk) and retry with backoff.
 */
export class SiyuanSync {
  private readonly store: MemoryStore
  private readonly options: SyncOptions
  private chain: Promise<SyncReport> = Promise.resolve({ ok: true, message: '' })
  private retry: ReturnType<typeof setTimeout> | undefined
  private failures = 0
  private closed = false
  private ledgerCache: Ledger | undefined
  /** The ledger on disk could not be read: it is renamed aside before the next save. */
  private ledgerBroken = false
  private aside: string[] = []
  /** Called before every run (trigger.ts starts or stops its store watcher there, as the setting says). */
  beforeRun: (() => void) | undefined

  constructor(store: MemoryStore, options: SyncOptions) {
    this.store = store
    this.options = options
  }

  private settings() {
    return this.store.settings.values.siyuan
  }

  state(): SyncState {
    const l = this.ledgerCache
    const state: SyncState = { enabled: this.settings().enabled, queued: l?.pending.length ?? 0 }
    if (l?.lastRunAt !== undefined) state.lastRunAt = l.lastRunAt
    if (l?.lastReport !== undefined) state.lastReport = l.lastReport
    if (this.aside.length > 0) state.keptAside = { file: `${LAYOUT.meta}/${this.aside.at(-1)!}`, n: this.aside.length }
    return state
  }

  /** Runs after whatever run is going on (one queue); resolves with what this run sent. */
  runNow(): Promise<SyncReport> {
    this.beforeRun?.()
    const next = this.chain.then(
      () => this.run(),
      () => this.run(),
    )
    this.chain = next
    return next
  }

  close(): void {
    this.closed = true
    if (this.retry !== undefined) clearTimeout(this.retry)
  }

  private async readLedger(): Promise<Ledger> {
    const { value, problem } = await this.store.readMetaJson<unknown>(LEDGER, {})
    this.ledgerBroken = problem !== undefined || !isLedgerShaped(value)
    const ledger: Ledger = { docs: {}, pending: [], failed: {}, ...(this.ledgerBroken ? {} : (value as Partial<Ledger>)) }
    this.ledgerCache = ledger
    this.aside = await this.asideFiles()
    return ledger
  }

  private async asideFiles(): Promise<string[]> {
    try {
      return (await readdir(join(this.store.root, LAYOUT.meta))).filter((n) => n.startsWith(ASIDE_PREFIX)).sort()
    } catch {
      return []
    }
  }

  /** A ledger that could not be read is kept (renamed aside), never written over: the person may want to see what it held. */
  private async saveLedger(ledger: Ledger, report?: SyncReport): Promise<void> {
    this.ledgerCache = ledger
    await this.store.withWriteLock(async (lock) => {
      if (this.ledgerBroken) {
        const { value, problem } = await this.store.readMetaJson<unknown>(LEDGER, {})
        if (problem !== undefined || !isLedgerShaped(value)) {
          const aside = await this.store.keepMetaAside(LEDGER, lock)
          this.aside = [...this.aside, aside]
          if (report !== undefined) {
            report.keptAside = `${LAYOUT.meta}/${aside}`
            report.message += `; the sync record could not be read and was kept aside as ${report.keptAside}`
          }
        }
        this.ledgerBroken = false
      }
      await this.store.writeMetaJson(LEDGER, ledger, lock)
    })
  }

  /**
   * The notebook to write into: the one used before if it is still open,
   * else an open one of that name, else a new one. A closed notebook is never
   * written into (the kernel finds only opened ones) and never opened from
   * here: closing is the person's choice in SiYuan (docs/decisions/050).
   */
  private async notebookId(client: SiyuanClient, ledger: Ledger, name: string): Promise<string> {
    const all = await client.notebooks()
    const same = ledger.url === this.settings().url && ledger.notebook?.name === name ? all.find((n) => n.id === ledger.notebook?.id) : undefined
    const open = same !== undefined && !same.closed ? same : all.find((n) => n.name === name && !n.closed)
    if (open === undefined && all.some((n) => n.name === name))
      throw new SiyuanError(
        `the SiYuan notebook "${name}" is closed; open it in SiYuan (or set siyuan.notebook to another name) and the sync goes on`,
        'denied',
      )
    const id = open?.id ?? (await client.createNotebook(name))
    if (ledger.notebook?.id !== id || ledger.url !== this.settings().url) {
      // Another notebook or another SiYuan: what was sent before is not there.
      ledger.docs = {}
      ledger.failed = {}
    }
    ledger.notebook = { name, id }
    ledger.url = this.settings().url
    return id
  }

  /** Store files now and what they render to. */
  private async current(): Promise<Map<string, string>> {
    const out = new Map<string, string>()
    for (const rel of (await walkFiles(this.store.root)).filter(isSynced).sort()) {
      try {
        out.set(rel, renderDoc(await readFile(this.store.path(rel), 'utf8')))
      } catch {
        /* gone between the walk and the read: the next run sees it as removed */
      }
    }
    return out
  }

  /** Sends one file; true when its document had been removed in SiYuan and was made again. */
  private async putDoc(client: SiyuanClient, notebook: string, ledger: Ledger, rel: string, markdown: string): Promise<boolean> {
    const hash = contentHash(markdown)
    const known = ledger.docs[rel]
    if (known !== undefined) {
      try {
        await client.updateDoc(known.id, markdown)
        ledger.docs[rel] = { id: known.id, hash }
        return false
      } catch (error) {
        // Removed in SiYuan (or a ledger id the kernel calls invalid): make it again below. A document
        // the person moved keeps its id, so it is updated where they put it and never lands here.
        if (!(error instanceof SiyuanError) || !isGone(error)) throw error
        delete ledger.docs[rel]
      }
    }
    const path = docPath(rel)
    // A document already at that path (a lost ledger, another process) is updated, never duplicated.
    const existing = (await client.idsByHPath(notebook, path))[0]
    if (existing !== undefined) await client.updateDoc(existing, markdown)
    const id = existing ?? (await client.createDoc(notebook, path, markdown))
    ledger.docs[rel] = { id, hash }
    return known !== undefined
  }

  /** Removes one file's document; one already removed in SiYuan counts as done. */
  private async dropDoc(client: SiyuanClient, ledger: Ledger, rel: string, id: string): Promise<void> {
    try {
      await client.removeDoc(id)
    } catch (error) {
      if (!(error instanceof SiyuanError) || !isGone(error)) throw error
    }
    delete ledger.docs[rel]
  }

  /** One file: sent, removed, unchanged or set aside; throws only what stops the whole run. */
  private async one(client: SiyuanClient, notebook: string, ledger: Ledger, rel: string, markdown: string | undefined, report: SyncReport): Promise<void> {
    const known = ledger.docs[rel]
    const hash = markdown === undefined ? REMOVED : contentHash(markdown)
    if (markdown === undefined && known === undefined) return void delete ledger.failed[rel]
    if (known?.hash === hash) {
      delete ledger.failed[rel]
      report.unchanged = (report.unchanged ?? 0) + 1
      return
    }
    const setAside = ledger.failed[rel]
    if (setAside?.hash === hash) return void note(report, rel, setAside.message)
    try {
      if (markdown === undefined) {
        await this.dropDoc(client, ledger, rel, (known as { id: string }).id)
        report.removed = (report.removed ?? 0) + 1
      } else {
        if (await this.putDoc(client, notebook, ledger, rel, markdown)) report.recreated = (report.recreated ?? 0) + 1
        report.sent = (report.sent ?? 0) + 1
      }
      delete ledger.failed[rel]
    } catch (error) {
      // Only this file's refusal: it waits until it changes, the others go on.
      if (!(error instanceof SiyuanError) || error.kind !== 'refused') throw error
      ledger.failed[rel] = { hash, message: error.message }
      note(report, rel, error.message)
    }
  }

  private async run(): Promise<SyncReport> {
    if (this.closed) return { ok: false, message: 'the sync is stopped', said: { code: 'stopped' } }
    const s = this.settings()
    if (!s.enabled) return { ok: false, message: 'SiYuan sync is off (siyuan.enabled in the settings)', said: { code: 'off' } }
    const token = this.options.env[s.tokenEnv] ?? ''
    if (token === '')
      return {
        ok: false,
        message: `no SiYuan token: set the environment variable ${s.tokenEnv} before starting DSH`,
        said: { code: 'no-token', tokenEnv: s.tokenEnv },
      }
    const ledger = await this.readLedger()
    const client = new SiyuanClient({ url: s.url, token, timeoutMs: this.options.timeoutMs ?? 10_000 })
    const report: SyncReport = { ok: true, message: '', sent: 0, removed: 0, unchanged: 0, queued: 0, failed: 0, recreated: 0 }
    const files = await this.current()
    const work = new Set([...ledger.pending, ...files.keys(), ...Object.keys(ledger.docs)])
    try {
      const notebook = await this.notebookId(client, ledger, s.notebook)
      for (const rel of [...work].sort()) {
        await this.one(client, notebook, ledger, rel, files.get(rel), report)
        ledger.pending = ledger.pending.filter((p) => p !== rel)
      }
      this.failures = 0
      report.ok = report.failed === 0
      report.said = { code: 'done', notebook: s.notebook }
      report.message = `sent ${report.sent}, removed ${report.removed}, unchanged ${report.unchanged} (notebook ${s.notebook})`
      if ((report.recreated ?? 0) > 0) report.message += `; made again ${report.recreated} document(s) removed in SiYuan`
      if ((report.failed ?? 0) > 0)
        report.message += `; SiYuan refused ${report.failed} file(s), set aside until they change: ${(report.problems ?? []).join('; ')}`
    } catch (error) {
      if (!(error instanceof SiyuanError)) throw error
      // What was not done stays pending on disk; a restart picks it up.
      const done = new Set(
        Object.entries(ledger.docs)
          .filter(([rel, d]) => files.has(rel) && d.hash === contentHash(files.get(rel) as string))
          .map(([rel]) => rel),
      )
      ledger.pending = [...work].filter((rel) => !done.has(rel) && (files.has(rel) || ledger.docs[rel] !== undefined))
      report.ok = false
      report.queued = ledger.pending.length
      const then = error.retryable ? 'are sent when SiYuan answers' : 'are not tried again until the next run'
      report.message = `${error.message}; ${report.queued} file(s) wait and ${then}`
      report.said = { code: 'waiting', error: error.message, retryable: error.retryable, ...(error.said !== undefined ? { errorSaid: error.said } : {}) }
      if (error.retryable) this.scheduleRetry()
    }
    ledger.lastRunAt = new Date().toISOString()
    ledger.lastReport = report
    await this.saveLedger(ledger, report)
    return report
  }

  private scheduleRetry(): void {
    if (this.closed || this.retry !== undefined) return
    const steps = this.options.backoffMs ?? BACKOFF_MS
    const delay = steps[Math.min(this.failures, steps.length - 1)] ?? 60_000
    this.failures += 1
    this.retry = setTimeout(() => {
      this.retry = undefined
      void this.runNow()
    }, delay)
    this.retry.unref?.()
  }
}
