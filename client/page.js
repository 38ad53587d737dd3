'use strict'
// 「昔涟 · 一页永恒」: the state of her memory, three buttons, the calendar, the dream sessions, the settings.
const React = require('react')
const { getStatus, getDay, postAction } = require('./api.js')
const { Calendar } = require('./calendar.js')
const { SettingsForm } = require('./settings-form.js')
const h = React.createElement

const card = { border: '1px solid rgba(128,128,128,0.25)', borderRadius: 10, padding: '10px 12px', minWidth: 150 }
const section = { marginTop: 22 }

function mb(bytes) {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

function Card(props) {
  return h(
    'div',
    { style: card, 'data-card': props.id },
    h('div', { style: { fontSize: 12, opacity: 0.7 } }, props.title),
    h('div', { style: { marginTop: 4, fontWeight: 600 } }, props.children),
  )
}

function stateWord(t, kind) {
  return ['ready', 'busy', 'failed', 'starting', 'building', 'off'].includes(kind) ? t(kind) : kind
}

function syncLine(t, sync) {
  if (!sync) return t('none')
  if (!sync.enabled) return t('notConfigured')
  if (!sync.lastReport) return t('none')
  return `${sync.lastRunAt ? sync.lastRunAt.slice(0, 16).replace('T', ' ') + ' · ' : ''}${sync.lastReport.message}`
}

function gitLine(t, git) {
  if (!git || !git.remote) return t('notConfigured')
  const last = git.lastReport ? `${git.lastRunAt ? git.lastRunAt.slice(0, 16).replace('T', ' ') + ' · ' : ''}${git.lastReport.message}` : git.remote
  return git.conflicts.length === 0 ? last : `${last} · ${git.conflicts.length} ${t('gitConflicts')}: ${git.conflicts.map((c) => c.key || c.file).join(', ')}`
}

function Cards(props) {
  const { t, status } = props
  const s = status.store
  const snaps = status.snapshots
  return h(
    'div',
    { style: { display: 'flex', flexWrap: 'wrap', gap: 10 } },
    h(Card, { id: 'engine', title: t('engine') }, stateWord(t, status.engine.kind)),
    h(
      Card,
      { id: 'store', title: t('store') },
      s ? `${s.entries} ${t('entries')} · ${s.pending} ${t('pending')} · ${mb(s.usage.totalBytes)} / ${mb(s.usage.limitBytes)}` : t('none'),
    ),
    h(Card, { id: 'recall', title: t('recall') }, `${stateWord(t, status.recall.kind)}${status.recall.size !== undefined ? ` · ${status.recall.size}` : ''}`),
    h(Card, { id: 'dream', title: t('lastDream') }, status.lastDream || t('none')),
    h(Card, { id: 'sync', title: t('lastSync') }, syncLine(t, status.sync)),
    h(Card, { id: 'git', title: t('gitSync') }, gitLine(t, status.git)),
    h(Card, { id: 'snapshots', title: t('snapshots') }, snaps.length === 0 ? t('none') : `${snaps.length} · ${snaps[snaps.length - 1].name}`),
  )
}

function Sessions(props) {
  const { t, registry, onToggle, busy } = props
  const sessions = registry ? registry.sessions : []
  if (sessions.length === 0) return h('p', { style: { opacity: 0.75 } }, t('sessionsEmpty'))
  return h(
    'ul',
    { style: { listStyle: 'none', padding: 0 }, 'data-cyrene': 'sessions' },
    sessions.map((s) =>
      h(
        'li',
        { key: s.sessionId, style: { margin: '4px 0' } },
        h(
          'label',
          null,
          h('input', { type: 'checkbox', checked: s.enabled, disabled: busy, onChange: (e) => onToggle(s.sessionId, e.target.checked) }),
          ' ',
          h('code', null, s.sessionId.slice(0, 12)),
          s.lastActiveAt ? ` · ${s.lastActiveAt.slice(0, 16).replace('T', ' ')}` : '',
          s.lastUserText ? ` · “${s.lastUserText}”` : '',
        ),
      ),
    ),
  )
}

function Day(props) {
  const { t, day } = props
  if (!day) return null
  return h(
    'div',
    { 'data-cyrene': 'day', style: { marginTop: 10 } },
    h('strong', null, `${t('dayEntries')} · ${day.date}`),
    day.entries.length === 0
      ? h('p', null, t('dayEmpty'))
      : h(
          'ul',
          null,
          day.entries.map((e) =>
            h(
              'li',
              { key: e.id, style: { margin: '4px 0', opacity: e.area === 'pending' ? 0.7 : 1 } },
              e.area === 'pending' ? `〔${t('pending')}〕` : '',
              e.kind ? `［${e.kind}］` : '',
              e.text,
            ),
          ),
        ),
  )
}

function Page(props) {
  const t = props.t
  const [status, setStatus] = React.useState(null)
  const [error, setError] = React.useState(null)
  const [message, setMessage] = React.useState('')
  const [busy, setBusy] = React.useState(false)
  const [selected, setSelected] = React.useState(null)
  const [day, setDay] = React.useState(null)

  const load = React.useCallback(async () => {
    try {
      setStatus(await getStatus())
      setError(null)
    } catch (e) {
      setError(e.message)
    }
  }, [])
  React.useEffect(() => {
    load()
  }, [load])

  const act = async (body) => {
    setBusy(true)
    setMessage(t('working'))
    try {
      const answer = await postAction(body)
      setMessage(answer.message || (answer.ok ? 'ok' : ''))
    } catch (e) {
      setMessage(e.message)
    } finally {
      setBusy(false)
      await load()
    }
  }
  const select = async (date) => {
    setSelected(date)
    try {
      setDay(await getDay(date))
    } catch (e) {
      setMessage(e.message)
    }
  }

  const head = h('div', null, h('h2', { style: { margin: '0 0 2px' } }, t('title')), h('p', { style: { margin: 0, opacity: 0.7 } }, t('subtitle')))
  if (error) return h('div', { 'data-cyrene': 'settings' }, head, h('p', { role: 'alert' }, t('loadFailed'), error))
  if (!status) return h('div', { 'data-cyrene': 'settings' }, head, h('p', null, t('loading')))
  const problems = status.settings ? status.settings.problems : []
  return h(
    'div',
    { 'data-cyrene': 'settings', style: { maxWidth: 760 } },
    head,
    h('div', { style: section }, h(Cards, { t, status })),
    problems.length > 0
      ? h(
          'div',
          { style: section, role: 'alert' },
          h('strong', null, t('problems')),
          h(
            'ul',
            null,
            problems.map((p) => h('li', { key: p }, p)),
          ),
        )
      : null,
    h(
      'div',
      { style: { ...section, display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' } },
      h('button', { type: 'button', disabled: busy, 'data-action': 'sync', onClick: () => act({ action: 'sync' }) }, t('syncNow')),
      h('button', { type: 'button', disabled: busy, 'data-action': 'backup', onClick: () => act({ action: 'backup' }) }, t('backupNow')),
      h('button', { type: 'button', disabled: busy, 'data-action': 'dream', onClick: () => act({ action: 'dream' }) }, t('dreamNow')),
      h('span', { role: 'status', 'data-cyrene': 'message', style: { fontSize: 13, opacity: 0.85 } }, message),
    ),
    h(
      'div',
      { style: section },
      h('h3', null, t('calendar')),
      h(Calendar, { t, days: status.calendar, today: status.today, selected, onSelect: select }),
      h(Day, { t, day }),
    ),
    h(
      'div',
      { style: section },
      h('h3', null, t('sessions')),
      h(Sessions, {
        t,
        registry: status.dreamRegistry,
        busy,
        onToggle: (sessionId, enabled) => act({ action: 'save-config', dreamSession: { sessionId, enabled } }),
      }),
    ),
    status.settings
      ? h(
          'div',
          { style: section },
          h('h3', null, t('settings')),
          h(SettingsForm, { t, values: status.settings.values, sync: status.sync, busy, onSave: (settings) => act({ action: 'save-config', settings }) }),
        )
      : null,
  )
}

exports.Page = Page
