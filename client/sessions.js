'use strict'
// The sessions the nightly dream looks back on (元/梦会话.json), each by its DSH title, with its own
// switch and the answer to a switch beside it.
const React = require('react')
const { titleOf } = require('./titles.js')
const { COLOR, Data, Note, Switch } = require('./ui.js')
const { answerNote } = require('./answers.js')
const { fmt } = require('./format.js')
const h = React.createElement

function Sessions(props) {
  const { t, lang, registry, act } = props
  const [titles, setTitles] = React.useState({})
  const [notes, setNotes] = React.useState({})
  const sessions = registry ? registry.sessions : []
  React.useEffect(() => {
    let live = true
    titleOf()
      .then((found) => live && setTitles(found))
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [sessions.length])
  if (sessions.length === 0) return h('p', { style: { color: COLOR.dim, fontSize: 13 } }, t('sessions.empty'))
  const toggle = async (sessionId, enabled) => {
    setNotes((n) => ({ ...n, [sessionId]: { tone: 'busy', children: t('working') } }))
    const answer = await act({ action: 'save-config', dreamSession: { sessionId, enabled } })
    setNotes((n) => ({ ...n, [sessionId]: answerNote(t, answer) }))
  }
  return h(
    'div',
    { 'data-cyrene': 'sessions' },
    sessions.map((s) =>
      h(
        'div',
        {
          key: s.sessionId,
          'data-session': s.sessionId,
          style: { display: 'flex', alignItems: 'flex-start', gap: 8, padding: '12px 0', borderBottom: `1px solid ${COLOR.border}` },
        },
        h(
          'div',
          { style: { flex: 1, minWidth: 0 } },
          h('div', { style: { fontSize: 14, color: COLOR.label } }, titles[s.sessionId] ? h(Data, null, titles[s.sessionId]) : t('sessions.untitled')),
          h(
            'div',
            { style: { fontSize: 12, color: COLOR.dim, marginTop: 2 } },
            s.lastActiveAt ? t('sessions.lastActive', { when: fmt.dateTime(lang, s.lastActiveAt) }) : '',
            s.lastUserText ? h(Data, null, ` · “${s.lastUserText}”`) : null,
          ),
        ),
        h(
          'div',
          { style: { display: 'flex', flexDirection: 'column', alignItems: 'flex-end', gap: 6 } },
          h(Switch, { name: `dream-${s.sessionId}`, label: t('sessions.toggle'), checked: s.enabled, onChange: (v) => toggle(s.sessionId, v) }),
          notes[s.sessionId] ? h(Note, { id: s.sessionId, ...notes[s.sessionId] }) : null,
        ),
      ),
    ),
  )
}

exports.Sessions = Sessions
