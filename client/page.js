'use strict'
// 「昔涟 · 一页永恒」: the state of her memory, three buttons, the calendar and a day, the dream
// sessions, the settings. Every text comes from the catalogue (i18n.js) in DSH's active language.
const React = require('react')
const { getStatus, getDay, postAction } = require('./api.js')
const { answerNote } = require('./answers.js')
const { Calendar } = require('./calendar.js')
const { Day } = require('./day.js')
const { Sessions } = require('./sessions.js')
const { SettingsForm } = require('./settings-form.js')
const { COLOR, Button, Note, SectionTitle, tx } = require('./ui.js')
const { fmt } = require('./format.js')
const h = React.createElement

const STATES = ['ready', 'busy', 'failed', 'starting', 'building', 'off']

function Card(props) {
  return h(
    'div',
    { 'data-card': props.id, style: { background: COLOR.module, borderRadius: 12, padding: '10px 12px', minWidth: 0 } },
    h('div', { style: { fontSize: 12, color: COLOR.dim } }, props.title),
    h('div', { style: { marginTop: 4, fontSize: 14, fontWeight: 600, color: COLOR.label } }, props.children),
  )
}

const stateWord = (t, kind) => t(STATES.includes(kind) ? `state.${kind}` : 'state.other')

function syncLine(t, lang, sync) {
  if (!sync || !sync.enabled) return t('sync.off')
  if (!sync.lastReport) return t('none')
  const when = sync.lastRunAt ? fmt.dateTime(lang, sync.lastRunAt) : ''
  const r = sync.lastReport
  return r.ok ? t('sync.line', { when, sent: r.sent ?? 0, unchanged: r.unchanged ?? 0 }) : t('sync.failedLine', { when })
}

function gitLine(t, lang, git) {
  if (!git || !git.remote) return t('git.off')
  const when = git.lastRunAt ? fmt.dateTime(lang, git.lastRunAt) : ''
  const last = !git.lastReport ? t('git.noRun') : git.lastReport.ok ? t('git.line', { when }) : t('git.failedLine', { when })
  return git.conflicts.length === 0 ? last : `${last} · ${t('git.conflicts', { count: git.conflicts.length })}`
}

function snapshotLine(t, lang, snaps) {
  if (snaps.length === 0) return t('none')
  const last = snaps[snaps.length - 1]
  return last.takenAt
    ? t('snapshots.line', { count: snaps.length, when: fmt.dateTime(lang, last.takenAt) })
    : t('snapshots.lineNoTime', { count: snaps.length })
}

function Cards(props) {
  const { t, lang, status } = props
  const s = status.store
  return h(
    'div',
    { style: { display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: 10, marginTop: 16 } },
    h(Card, { id: 'engine', title: t('card.engine') }, stateWord(t, status.engine.kind)),
    h(
      Card,
      { id: 'store', title: t('card.store') },
      s
        ? t('store.line', { entries: s.entries, pending: s.pending, used: fmt.size(lang, s.usage.totalBytes), limit: fmt.size(lang, s.usage.limitBytes) })
        : t('none'),
    ),
    h(
      Card,
      { id: 'recall', title: t('card.recall') },
      status.recall.size !== undefined
        ? `${stateWord(t, status.recall.kind)} · ${t('recall.size', { size: status.recall.size })}`
        : stateWord(t, status.recall.kind),
    ),
    h(Card, { id: 'dream', title: t('card.dream') }, status.lastDream ? fmt.date(lang, status.lastDream) : t('none')),
    h(Card, { id: 'sync', title: t('card.sync') }, syncLine(t, lang, status.sync)),
    h(Card, { id: 'git', title: t('card.git') }, gitLine(t, lang, status.git)),
    h(Card, { id: 'snapshots', title: t('card.snapshots') }, snapshotLine(t, lang, status.snapshots)),
  )
}

/** The three buttons, each with its answer beside it. */
function Actions(props) {
  const { t, act } = props
  const [notes, setNotes] = React.useState({})
  const [busy, setBusy] = React.useState(null)
  const press = async (action) => {
    setBusy(action)
    setNotes((n) => ({ ...n, [action]: { tone: 'busy', children: t('working') } }))
    const answer = await act({ action })
    setNotes((n) => ({ ...n, [action]: answerNote(t, answer) }))
    setBusy(null)
  }
  return h(
    'div',
    { style: { display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: 10, marginTop: 16 } },
    ['sync', 'backup', 'dream'].map((action) =>
      h(
        'div',
        { key: action, style: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 6 } },
        h(Button, { variant: 'outline', disabled: busy !== null, 'data-action': action, onClick: () => press(action) }, t(`action.${action}`)),
        notes[action] ? h(Note, { id: action, ...notes[action], style: { textAlign: 'left' } }) : null,
      ),
    ),
  )
}

function Problems(props) {
  const { t, lang, settings } = props
  // The host words the store's problems in both languages (decision 083); an older host sends only its English.
  const problems = (settings.problemsIn && settings.problemsIn[lang]) || settings.problems
  if (problems.length === 0) return null
  return h(Note, { id: 'problems', tone: 'error', detail: problems.join('\n'), detailLabel: t('details') }, t('problems.title', { count: problems.length }))
}

function Page(props) {
  const { t, lang } = props
  const [status, setStatus] = React.useState(null)
  const [failed, setFailed] = React.useState(null)
  const [selected, setSelected] = React.useState(null)
  const [day, setDay] = React.useState(null)

  const load = React.useCallback(async () => {
    try {
      setStatus(await getStatus())
      setFailed(null)
    } catch (e) {
      setFailed(e.message)
    }
  }, [])
  React.useEffect(() => {
    load()
  }, [load])

  /** Posts an action and always answers (a refusal is an answer with its code), then reloads the state. */
  const act = async (body) => {
    let answer
    try {
      answer = await postAction(body)
    } catch (e) {
      answer = e.answer || { ok: false, error: e.message }
    }
    await load()
    if (selected !== null && (body.action === 'dream' || body.action === 'backup')) await select(selected)
    return answer
  }
  const select = async (date) => {
    setSelected(date)
    try {
      setDay(await getDay(date))
    } catch (e) {
      setDay({ date, failed: e.message, entries: [] })
    }
  }

  const head = h(
    'div',
    null,
    h('h2', { style: { margin: '0 0 2px', fontSize: 20, color: COLOR.label } }, t('title')),
    h('p', { style: { margin: 0, fontSize: 13, color: COLOR.dim } }, t('subtitle')),
  )
  const frame = (...children) => h('div', { 'data-cyrene': 'settings', lang: lang === 'zh' ? 'zh-CN' : 'en', style: { maxWidth: 760 } }, head, ...children)
  if (failed) return frame(h(Note, { id: 'load', tone: 'error', detail: failed, detailLabel: t('details') }, t('loadFailed')))
  if (!status) return frame(h('p', { style: { color: COLOR.dim } }, t('loading')))
  return frame(
    h(Cards, { t, lang, status }),
    h(Actions, { t, act }),
    h(SectionTitle, null, t('calendar')),
    h(Calendar, { t, lang, days: status.calendar, today: status.today, selected, onSelect: select }),
    h(Day, { t, lang, day }),
    h(SectionTitle, { hint: t('sessions.hint') }, t('sessions')),
    h(Sessions, { t, lang, registry: status.dreamRegistry, act }),
    status.settings ? h(SectionTitle, null, t('settings')) : null,
    status.settings ? h(Problems, { t, lang, settings: status.settings }) : null,
    status.settings
      ? h(SettingsForm, { t, lang, values: status.settings.values, sync: status.sync, onSave: (settings) => act({ action: 'save-config', settings }) })
      : null,
    status.engine.kind !== 'ready' && !status.store
      ? h(Note, { id: 'engine', tone: 'error' }, tx(t, 'answer.engine-off', { command: '/cyrene doctor' }))
      : null,
  )
}

exports.Page = Page
