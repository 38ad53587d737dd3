'use strict'
// The words for an answer of the panel's routes, chosen by its code (panel/answers.ts): the
// server never supplies the sentence, so a Chinese page never shows an English one.
const { tx } = require('./ui.js')

const DOCTOR = '/cyrene doctor'

/** `{tone, children, detail?}` for a Note beside the button that asked. */
function answerNote(t, answer) {
  const own = siyuanOrOther(t, answer)
  if (!answer.git || answer.code === 'git-done' || answer.code === 'git-failed') return own
  const gitWords = t(answer.git.ok ? 'answer.git-done' : 'answer.git-failed-short')
  return { ...own, tone: answer.git.ok ? own.tone : 'error', children: [gitWords, ' ', own.children] }
}

function siyuanOrOther(t, answer) {
  const c = answer.code
  const note = (tone, children, detail) => ({ tone, children, ...(detail ? { detail, detailLabel: t('details') } : {}) })
  switch (c) {
    case 'backup-done':
      return note('ok', t('answer.backup-done', { files: answer.files }))
    case 'backup-same-day':
      return note('ok', t('answer.backup-same-day'))
    case 'sync-done':
      return note('ok', t('answer.sync-done', { sent: answer.sent ?? 0, removed: answer.removed ?? 0, unchanged: answer.unchanged ?? 0 }))
    case 'sync-off':
    case 'sync-unavailable':
      return note('error', t(`answer.${c}`))
    case 'sync-no-token':
      return note('error', tx(t, 'answer.sync-no-token', { tokenEnv: answer.tokenEnv }))
    case 'sync-failed':
      return note('error', t('answer.sync-failed'), answer.detail)
    case 'git-done':
      return note('ok', t('answer.git-done'))
    case 'git-failed':
      return note('error', tx(t, 'answer.git-failed', { command: DOCTOR }), answer.message)
    case 'confirm-siyuan':
    case 'not-paired':
    case 'not-confirmed':
    case 'not-saved':
      return note('error', t(`answer.${c}`))
    case 'dream-dreamt':
      if (answer.detail) return note('error', t('answer.dream-failed'), answer.detail)
      return note('ok', tx(t, answer.wrote ? 'answer.dream-dreamt' : 'answer.dream-dreamt-empty', { night: answer.night }))
    case 'dream-busy':
    case 'dream-no-model':
    case 'dream-no-engine':
      return note('error', t(`answer.${c}`))
    case 'dream-not-due':
      return note('ok', t('answer.dream-not-due'))
    case 'dream-no-service':
    case 'engine-off':
      return note('error', tx(t, `answer.${c}`, { command: DOCTOR }))
    case 'dream-session-switched':
      return note('ok', t(answer.enabled ? 'answer.dream-session-on' : 'answer.dream-session-off'))
    default:
      if (answer.ok) return note('ok', t('answer.done'))
      return note('error', tx(t, 'answer.error', { command: DOCTOR }), answer.error || answer.message)
  }
}

exports.answerNote = answerNote
