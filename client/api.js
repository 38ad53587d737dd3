'use strict'
// The page talks only to its own host routes (same origin, JSON both ways).
const BASE = '/dsh-cyrene-philia093-0'

async function answer(res) {
  let body
  try {
    body = await res.json()
  } catch {
    body = { ok: false, error: `HTTP ${res.status}` }
  }
  if (!res.ok) {
    // The page words a refusal by its code (client/answers.js); the English `error` is only a detail.
    const error = new Error(body.error || `HTTP ${res.status}`)
    error.answer = { ...body, ok: false }
    throw error
  }
  return body
}

exports.getStatus = async () => answer(await fetch(`${BASE}/status`, { credentials: 'same-origin' }))

exports.getDay = async (date) => answer(await fetch(`${BASE}/day?date=${encodeURIComponent(date)}`, { credentials: 'same-origin' }))

exports.postAction = async (body) =>
  answer(
    await fetch(`${BASE}/action`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  )
