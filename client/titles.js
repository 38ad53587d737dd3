'use strict'
// Session titles for the dream sessions list, from DSH web's own session list (`session.list` on its
// same-origin /api, the call DSH's sidebar makes): the page shows what the person named or DSH titled.
async function titleOf() {
  const res = await fetch('/api/session.list', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'client-request', rpcId: `cyrene-${Date.now()}`, method: 'session.list', payload: {} }),
  })
  if (!res.ok) return {}
  const body = await res.json()
  const value = body && body.result ? (body.result.value ?? body.result) : {}
  const items = Array.isArray(value) ? value : (value.sessions ?? value.items ?? [])
  const titles = {}
  for (const s of items) {
    const id = s && (s.sessionId ?? s.id)
    // rc.8 carries the title among the session's projections; a flat `title` is read too.
    const title = s && (s.projections && s.projections.values ? s.projections.values.title : s.title)
    if (typeof id === 'string' && typeof title === 'string' && title.trim() !== '') titles[id] = title.trim()
  }
  return titles
}

exports.titleOf = titleOf
