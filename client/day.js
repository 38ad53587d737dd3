'use strict'
// One day of the calendar, opened by a click: its memories with their kind in the page's language,
// and, on a ☾ day, that night's dream journal.
const React = require('react')
const { COLOR, Data, Note } = require('./ui.js')
const { fmt } = require('./format.js')
const h = React.createElement

const KINDS = ['decision', 'lesson', 'rule', 'fact', 'preference', 'event', 'feeling', 'plan', 'person', 'note']

function kindWord(t, kind) {
  return t(KINDS.includes(kind) ? `kind.${kind}` : 'kind.other')
}

/** The journal's text without its markdown headings (the title repeats the date the day already shows). */
function journalBody(text) {
  return text
    .split('\n')
    .filter((line) => !/^#{1,6}\s/.test(line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

function Tag(props) {
  return h(
    'span',
    {
      'data-kind': props.kind,
      style: { display: 'inline-block', fontSize: 12, padding: '0 6px', marginRight: 6, borderRadius: 9, background: COLOR.module, color: COLOR.dim },
    },
    props.children,
  )
}

function Day(props) {
  const { t, lang, day } = props
  if (!day) return null
  return h(
    'div',
    { 'data-cyrene': 'day', style: { marginTop: 14, padding: '12px 14px', borderRadius: 12, border: `1px solid ${COLOR.border}` } },
    h('div', { style: { fontWeight: 600, fontSize: 14, color: COLOR.label } }, t('day.title', { date: fmt.date(lang, day.date) })),
    day.failed ? h(Note, { id: 'day', tone: 'error', detail: day.failed, detailLabel: t('details'), style: { textAlign: 'left' } }, t('loadFailed')) : null,
    day.entries.length === 0
      ? h('p', { style: { color: COLOR.dim, fontSize: 13 } }, t('day.empty'))
      : h(
          'ul',
          { style: { listStyle: 'none', padding: 0, margin: '8px 0 0' } },
          day.entries.map((e) =>
            h(
              'li',
              { key: e.id, style: { margin: '6px 0', fontSize: 14, opacity: e.area === 'pending' ? 0.75 : 1 } },
              e.area === 'pending' ? h(Tag, { kind: 'pending' }, t('day.pendingTag')) : null,
              e.kind ? h(Tag, { kind: e.kind }, kindWord(t, e.kind)) : null,
              h(Data, null, e.text),
            ),
          ),
        ),
    day.dream
      ? h(
          'div',
          { 'data-cyrene': 'dream', style: { marginTop: 12 } },
          h('div', { style: { fontWeight: 600, fontSize: 14, color: COLOR.label } }, `☾ ${t('day.dream')}`),
          h(Data, { as: 'div', style: { whiteSpace: 'pre-wrap', fontSize: 13, lineHeight: '20px', marginTop: 6, color: COLOR.label } }, journalBody(day.dream)),
        )
      : null,
  )
}

exports.Day = Day
