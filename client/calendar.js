'use strict'
// A month of memories: each day shows how many entries it kept, a moon for a dream, a dot for pending
// ones. Month and year are chosen directly (two selects) or stepped; a click opens the day below.
const React = require('react')
const { COLOR, Button, Select } = require('./ui.js')
const { fmt } = require('./format.js')
const h = React.createElement

function pad(n) {
  return String(n).padStart(2, '0')
}

function monthDays(year, month) {
  const first = new Date(year, month, 1)
  const count = new Date(year, month + 1, 0).getDate()
  const lead = (first.getDay() + 6) % 7
  const cells = []
  for (let i = 0; i < lead; i++) cells.push(null)
  for (let d = 1; d <= count; d++) cells.push(`${year}-${pad(month + 1)}-${pad(d)}`)
  return cells
}

/** Shade grows with the number of entries, so a busy day is seen before it is read. */
function shade(n) {
  if (n <= 0) return 'transparent'
  const alpha = Math.min(0.15 + n * 0.12, 0.75)
  return `rgba(214, 130, 160, ${alpha})`
}

/** Years the selector offers: from the oldest day with a memory (or ten years back) to next year. */
function yearRange(days, thisYear) {
  const oldest = Object.keys(days).reduce((min, d) => Math.min(min, Number(d.slice(0, 4))), thisYear - 10)
  const out = []
  for (let y = Math.max(1970, oldest); y <= thisYear + 1; y++) out.push(y)
  return out
}

function dayLabel(t, date, day) {
  return (
    t('calendar.dayLabel', { date, entries: day.entries }) +
    (day.pending ? t('calendar.dayPending', { pending: day.pending }) : '') +
    (day.dream ? t('calendar.dayDream') : '')
  )
}

function Cell(props) {
  const { t, date, day, selected, today, onSelect } = props
  const label = dayLabel(t, date, day)
  return h(
    'button',
    {
      type: 'button',
      'data-date': date,
      'aria-label': label,
      'aria-pressed': date === selected ? 'true' : 'false',
      title: label,
      onClick: () => onSelect(date),
      style: {
        position: 'relative',
        height: 44,
        border: date === selected ? `2px solid ${COLOR.brand}` : date === today ? `1px solid ${COLOR.brand}` : `1px solid ${COLOR.border}`,
        borderRadius: 8,
        background: shade(day.entries),
        cursor: 'pointer',
        font: 'inherit',
        color: COLOR.label,
        padding: 2,
      },
    },
    h('div', { style: { fontSize: 12, opacity: 0.7 } }, Number(date.slice(8))),
    day.entries > 0 ? h('div', { style: { fontSize: 13, fontWeight: 600 } }, day.entries) : null,
    day.dream ? h('span', { 'data-mark': 'dream', style: { position: 'absolute', top: 2, right: 4, fontSize: 11 } }, '☾') : null,
    day.pending > 0
      ? h('span', { style: { position: 'absolute', bottom: 3, right: 5, width: 6, height: 6, borderRadius: 3, background: 'rgb(230, 160, 40)' } })
      : null,
  )
}

function Calendar(props) {
  const { t, lang, days, today, selected, onSelect } = props
  const [year0, month0] = today.split('-').map(Number)
  const [view, setView] = React.useState({ year: year0, month: month0 - 1 })
  const go = (year, month) => {
    const d = new Date(year, month, 1)
    setView({ year: d.getFullYear(), month: d.getMonth() })
  }
  const cells = monthDays(view.year, view.month).map((date, i) =>
    date === null
      ? h('div', { key: `e${i}` })
      : h(Cell, { key: date, t, date, day: days[date] || { entries: 0, pending: 0, dream: false }, selected, today, onSelect }),
  )
  const months = Array.from({ length: 12 }, (_, m) => ({ value: String(m), label: fmt.monthName(lang, m) }))
  const years = yearRange(days, year0).map((y) => ({ value: String(y), label: fmt.yearName(lang, y) }))
  return h(
    'div',
    { 'data-cyrene': 'calendar' },
    h(
      'div',
      { style: { display: 'flex', alignItems: 'center', gap: 8, margin: '12px 0', flexWrap: 'wrap' } },
      h(Button, { variant: 'outline', 'aria-label': t('calendar.prev'), title: t('calendar.prev'), onClick: () => go(view.year, view.month - 1) }, '‹'),
      h(Select, {
        name: 'calendarYear',
        'aria-label': t('calendar.year'),
        value: String(view.year),
        options: years,
        style: { width: 110 },
        onChange: (e) => go(Number(e.target.value), view.month),
      }),
      h(Select, {
        name: 'calendarMonth',
        'aria-label': t('calendar.month'),
        value: String(view.month),
        options: months,
        style: { width: 110 },
        onChange: (e) => go(view.year, Number(e.target.value)),
      }),
      h(Button, { variant: 'outline', 'aria-label': t('calendar.next'), title: t('calendar.next'), onClick: () => go(view.year, view.month + 1) }, '›'),
      h(Button, { variant: 'ghost', 'data-action': 'calendar-today', onClick: () => go(year0, month0 - 1) }, t('calendar.today')),
      h(
        'span',
        { style: { fontSize: 12, color: COLOR.dim, marginLeft: 'auto' } },
        `☾ ${t('calendar.dream')} · `,
        h('span', { style: { color: 'rgb(230, 160, 40)' } }, '●'),
        ` ${t('calendar.pending')}`,
      ),
    ),
    h(
      'div',
      { style: { display: 'grid', gridTemplateColumns: 'repeat(7, minmax(36px, 1fr))', gap: 4 } },
      fmt.weekdays(lang).map((d) => h('div', { key: d, style: { textAlign: 'center', fontSize: 12, color: COLOR.dim } }, d)),
      cells,
    ),
  )
}

exports.Calendar = Calendar
