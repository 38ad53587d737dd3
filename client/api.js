'use strict'
// The page talks only to its own host routes (same origin, JSON both ways).
const BASE = '/dsh-cyrene-philia093-0'
// The pairing code the person typed (CONTRACT#pairing): kept in this page's memory only, never stored.
let pairing = ''

async function bodyOf(res) {
  try {
    return await res.json()
  } catch {
    return { ok: false, error: `HTTP ${res.status}` }
  }
}

/** A refusal the page words by its code (client/answers.js); the English `error` is only a detail. */
function refusal(body, status) {
  const error = new Error(body.error || `HTTP ${status}`)
  error.answer = { ...body, ok: false }
  return error
}

async function answer(res) {
  const body = await bodyOf(res)
  if (!res.ok) throw refusal(body, res.status)
  return body
}

exports.getStatus = async () => answer(await fetch(`${BASE}/status`, { credentials: 'same-origin' }))

exports.getDay = async (date) => answer(await fetch(`${BASE}/day?date=${encodeURIComponent(date)}`, { credentials: 'same-origin' }))

/**
 * Tells the host which language DSH web shows (decision 076): when DSH stores no choice, the
 * browser's language decides in the page, and the host's chat commands cannot see it otherwise.
 * It changes no data, so it needs no pairing code. A refusal (400) is final; anything else (the
 * route not up yet while the memory engine starts, the host restarting) is tried again a few times,
 * each time with the language of that moment (`current()`), so a late retry never sends an old one.
 */
exports.postLocale = async (current, tries = 5, waitMs = 2000) => {
  for (let round = 1; ; round++) {
    const res = await fetch(`${BASE}/locale`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ lang: current() }),
    }).catch(() => undefined)
    if (res?.ok) return await answer(res)
    if (res?.status === 400 || round >= tries) throw refusal(res === undefined ? { error: 'no answer' } : await bodyOf(res), res?.status ?? 0)
    await new Promise((resolve) => setTimeout(resolve, waitMs * round))
  }
}

const send = (body) =>
  fetch(`${BASE}/action`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', 'x-cyrene-pairing': pairing },
    body: JSON.stringify(body),
  })

const PAIRING_QUESTION = '输入运行 DSH web 的终端里显示的「昔涟设置页配对码」\nType the Cyrene settings pairing code shown in the terminal DSH web runs in'

/**
 * Every change goes through here: a missing or wrong pairing code asks the
 * person for it, and a change the host wants confirmed (sending the memory to
 * SiYuan) asks the person once more before it is sent again.
 */
exports.postAction = async (first) => {
  let body = first
  for (let round = 0; round < 4; round++) {
    const res = await send(body)
    const got = await bodyOf(res)
    if (res.status === 401 && got.pairing !== undefined) {
      const typed = window.prompt(got.pairing === 'wrong' ? `${got.error}\n\n${PAIRING_QUESTION}` : PAIRING_QUESTION)
      if (typed === null || typed.trim() === '') throw refusal({ ...got, code: 'not-paired' }, res.status)
      pairing = typed.trim()
      continue
    }
    if (res.status === 409 && typeof got.confirm === 'string' && body.confirm === undefined) {
      if (!window.confirm(got.error)) throw refusal({ ...got, code: 'not-confirmed' }, res.status)
      body = { ...body, confirm: got.confirm }
      continue
    }
    if (!res.ok) throw refusal(got, res.status)
    return got
  }
  throw refusal({ error: 'not saved', code: 'not-saved' }, 400)
}
