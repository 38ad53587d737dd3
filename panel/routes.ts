import type { IncomingMessage, ServerResponse } from 'node:http'
import { isDateString } from '../memory/paths.ts'
import { runAction } from './actions.ts'
import { dreamOfDay, entriesOfDay } from './calendar.ts'
import type { PanelDeps } from './deps.ts'
import { readDreamRegistry } from '../night/index.ts'
import { checkRequest } from './guard.ts'
import { PAIRING_HEADER } from './pairing.ts'
import { PanelError, readJsonBody, sendJson } from './http.ts'
import { reportLocale } from './locale.ts'
import { panelStatus } from './status.ts'

/** The prefix every panel route lives under (CONTRACT#panel-routes). */
export const PANEL_PREFIX = '/dsh-cyrene-philia093-0'

type Handler = (deps: PanelDeps, url: URL, req: IncomingMessage) => Promise<unknown>

async function session(deps: PanelDeps, url: URL): Promise<unknown> {
  const id = url.searchParams.get('sessionId')
  if (id === null || id === '' || id.length > 200) throw new PanelError(400, 'give ?sessionId=<id>')
  const store = deps.memory.store()
  if (store === undefined) throw new PanelError(409, 'the memory engine is not running in this DSH process')
  const registry = await readDreamRegistry(store)
  const found = registry.sessions.find((s) => s.sessionId === id)
  return { sessionId: id, registered: found !== undefined, dream: found ?? null, defaultEnabled: registry.defaultEnabled }
}

async function day(deps: PanelDeps, url: URL): Promise<unknown> {
  const date = url.searchParams.get('date') ?? ''
  if (!isDateString(date)) throw new PanelError(400, 'give ?date=YYYY-MM-DD')
  const store = deps.memory.store()
  if (store === undefined) throw new PanelError(409, 'the memory engine is not running in this DSH process', 'engine-off')
  return { date, entries: await entriesOfDay(store, date), dream: await dreamOfDay(store, date) }
}

const GET: Record<string, Handler> = {
  '/status': async (deps) => await panelStatus(deps),
  '/session': session,
  '/day': day,
}

const POST: Record<string, Handler> = {
  '/action': async (deps, _url, req) => await runAction(deps, await readJsonBody(req, deps.maxBodyBytes)),
  '/locale': async (deps, _url, req) => reportLocale(deps.pageLocale, await readJsonBody(req, deps.maxBodyBytes)),
}

/** POSTs that change no data, only which language wordless replies use (decision 076): Host/Origin/JSON checked, no pairing code. */
const UNPAIRED_POST = new Set(['/locale'])

/**
 * The handler registered at the panel prefix. Every request passes the Host
 * (and, for POST, Origin and JSON) check first; every failure is a JSON
 * `{ok:false, error}` without a stack; an unexpected error says only that it happened.
 */
export function panelHandler(deps: PanelDeps, log: (error: unknown) => void = () => {}): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void (async () => {
      const verdict = checkRequest(req, deps.trustedHosts)
      if (!verdict.ok) {
        req.resume()
        sendJson(res, verdict.status, { ok: false, error: verdict.why })
        return
      }
      const url = new URL(req.url ?? '/', 'http://panel.invalid')
      const path = url.pathname.startsWith(PANEL_PREFIX) ? url.pathname.slice(PANEL_PREFIX.length) : url.pathname
      if (req.method === 'POST' && !UNPAIRED_POST.has(path)) {
        const pairing = deps.pairing.check(req.headers[PAIRING_HEADER])
        if (pairing !== 'ok') {
          req.resume()
          sendJson(res, 401, {
            ok: false,
            pairing,
            error:
              pairing === 'missing'
                ? 'type the pairing code shown in the terminal DSH web runs in; nothing was changed'
                : 'that is not the pairing code shown in the terminal DSH web runs in; nothing was changed',
          })
          return
        }
      }
      const table = req.method === 'GET' ? GET : req.method === 'POST' ? POST : undefined
      const handler = table?.[path]
      if (handler === undefined) {
        req.resume()
        const known = path in GET || path in POST
        sendJson(res, known ? 405 : 404, { ok: false, error: known ? 'method not allowed' : 'no such panel route' })
        return
      }
      try {
        sendJson(res, 200, await handler(deps, url, req))
      } catch (error) {
        req.resume()
        if (error instanceof PanelError)
          sendJson(res, error.status, { ...error.data, ok: false, error: error.message, ...(error.code === undefined ? {} : { code: error.code }) })
        else {
          log(error)
          sendJson(res, 500, { ok: false, error: 'the panel could not do that; see /cyrene doctor and the DSH log' })
        }
      }
    })()
  }
}
