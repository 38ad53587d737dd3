'use strict'
// A month of memories: each day shows how many entries it kept, a moon for a dream, a dot for pending ones.
const React = require('react')
const h = React.createElement

function pad(n) {
  return String(n).padStart(2, '0')
}

function monthDays(year, month) {
  const first = new Date(year, month, 1)
  const count = new Date(year, month + 1, 0).getDate()
  // Weeks start on Monday, as a Chinese wall calendar does.
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

function Calendar(props) {
  const { t, days, today, selected, onSelect } = props
  const [year0, month0] = today.split('-').map(Number)
  const [view, setView] = React.useState({ year: year0, month: month0 - 1 })
  const move = (step) => {
    const d = new Date(view.year, view.month + step, 1)
    setView({ year: d.getFullYear(), month: d.getMonth() })
  }
  const heads = t('title').startsWith('昔涟') ? ['一', '二', '三', '四', '五', '六', '日'] : ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su']
  const cells = monthDays(view.year, view.month).map((date, i) => {
    if (date === null) return h('div', { key: `e${i}` })
    const day = days[date] || { entries: 0, pending: 0, dream: false }
    const label = `${date}: ${day.entries} ${t('entries')}${day.pending ? `, ${day.pending} ${t('pending')}` : ''}${day.dream ? `, ${t('dreamMark')}` : ''}`
    return h(
      'button',
      {
        key: date,
        type: 'button',
        'data-date': date,
        'aria-label': label,
        title: label,
        onClick: () => onSelect(date),
        style: {
          position: 'relative',
          height: 44,
          border: date === selected ? '2px solid rgb(190, 90, 130)' : date === today ? '1px solid rgb(190, 90, 130)' : '1px solid rgba(128,128,128,0.25)',
          borderRadius: 8,
          background: shade(day.entries),
          cursor: 'pointer',
          font: 'inherit',
          color: 'inherit',
          padding: 2,
        },
      },
      h('div', { style: { fontSize: 12, opacity: 0.7 } }, Number(date.slice(8))),
      day.entries > 0 ? h('div', { style: { fontSize: 13, fontWeight: 600 } }, day.entries) : null,
      day.dream ? h('span', { style: { position: 'absolute', top: 2, right: 4, fontSize: 11 } }, '☾') : null,
      day.pending > 0
        ? h('span', { style: { position: 'absolute', bottom: 3, right: 5, width: 6, height: 6, borderRadius: 3, background: 'rgb(230, 160, 40)' } })
        : null,
    )
  })
  return h(
    'div',
    { 'data-cyrene': 'calendar' },
    h(
      'div',
      { style: { display: 'flex', alignItems: 'center', gap: 8, marginBottom: 8 } },
      h('button', { type: 'button', 'aria-label': t('prevMonth'), onClick: () => move(-1) }, '‹'),
      h('strong', { 'data-cyrene': 'month' }, `${view.year}-${pad(view.month + 1)}`),
      h('button', { type: 'button', 'aria-label': t('nextMonth'), onClick: () => move(1) }, '›'),
      h(
        'span',
        { style: { fontSize: 12, opacity: 0.7, marginLeft: 8 } },
        `☾ ${t('dreamMark')} · `,
        h('span', { style: { color: 'rgb(230, 160, 40)' } }, '●'),
        ` ${t('pendingMark')}`,
      ),
    ),
    h(
      'div',
      { style: { display: 'grid', gridTemplateColumns: 'repeat(7, minmax(36px, 1fr))', gap: 4, maxWidth: 420 } },
      heads.map((d) => h('div', { key: d, style: { textAlign: 'center', fontSize: 12, opacity: 0.6 } }, d)),
      cells,
    ),
  )
}

exports.Calendar = Calendar
