import type { IncomingMessage } from 'node:http'

/**
 * DSH guards its own `/api` but not a plugin's routes, so the panel checks
 * every request itself: the Host header must name this machine (loopback) or
 * an authority the row trusts, which stops DNS rebinding; a POST that carries an
 * Origin must come from that same host, which stops another page in the
 * browser from driving the buttons. A POST must also say it is JSON: a
 * cross-site form cannot, and a cross-site fetch that does needs a CORS
 * preflight this server never answers.
 */
export type Verdict = { ok: true } | { ok: false; status: 403 | 415; why: string }

function hostnameOf(authority: string): string | undefined {
  try {
    return new URL(`http://${authority}`).hostname
  } catch {
    return undefined
  }
}

function isLoopbackHostname(hostname: string): boolean {
  const h = hostname.toLowerCase()
  if (h === 'localhost' || h.endsWith('.localhost') || h === '[::1]') return true
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)
}

/** A trusted entry `host:port` matches exactly; a bare `host` matches it on any port. */
function trusted(authority: string, trustedHosts: readonly string[]): boolean {
  const lower = authority.toLowerCase()
  const hostname = hostnameOf(lower)
  return trustedHosts.some((entry) => {
    const e = entry.toLowerCase()
    return e.includes(':') && !e.startsWith('[') ? e === lower : e === hostname
  })
}

function hostAllowed(host: string | undefined, trustedHosts: readonly string[]): boolean {
  if (host === undefined || host === '') return false
  const hostname = hostnameOf(host)
  if (hostname === undefined) return false
  return isLoopbackHostname(hostname) || trusted(host, trustedHosts)
}

export function checkRequest(req: IncomingMessage, trustedHosts: readonly string[]): Verdict {
  const host = req.headers.host
  if (!hostAllowed(host, trustedHosts)) return { ok: false, status: 403, why: 'this host name is not trusted' }
  if (req.method !== 'POST') return { ok: true }
  const origin = req.headers.origin
  if (origin !== undefined) {
    let originHost: string | undefined
    try {
      originHost = new URL(origin).host
    } catch {
      originHost = undefined
    }
    if (originHost === undefined || originHost.toLowerCase() !== (host as string).toLowerCase())
      return { ok: false, status: 403, why: 'cross-origin requests are refused' }
  }
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase()
  if (type !== 'application/json') return { ok: false, status: 415, why: 'send JSON (content-type: application/json)' }
  return { ok: true }
}
