'use strict'
// Dates, times and sizes in the page's language (DSH's active locale), through the browser's Intl.
const TAG = { zh: 'zh-CN', en: 'en-US' }

function tagOf(lang) {
  return TAG[lang] || TAG.en
}

/** A `YYYY-MM-DD` as a local calendar day (no time-zone shift). */
function dayDate(ymd) {
  const [y, m, d] = ymd.split('-').map(Number)
  return new Date(y, m - 1, d)
}

function date(lang, ymd) {
  return new Intl.DateTimeFormat(tagOf(lang), { year: 'numeric', month: 'long', day: 'numeric' }).format(dayDate(ymd))
}

function dateTime(lang, iso) {
  const at = new Date(iso)
  if (Number.isNaN(at.getTime())) return ''
  return new Intl.DateTimeFormat(tagOf(lang), { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }).format(at)
}

/** `HH:MM` as the page's language writes a time of day (23:30 in Chinese, 11:30 PM in English). */
function clock(lang, hhmm) {
  const [hh, mm] = hhmm.split(':').map(Number)
  if (!Number.isInteger(hh) || !Number.isInteger(mm)) return hhmm
  return new Intl.DateTimeFormat(tagOf(lang), { hour: 'numeric', minute: '2-digit' }).format(new Date(2000, 0, 1, hh, mm))
}

function monthName(lang, month) {
  return new Intl.DateTimeFormat(tagOf(lang), { month: 'long' }).format(new Date(2000, month, 1))
}

function yearName(lang, year) {
  return new Intl.DateTimeFormat(tagOf(lang), { year: 'numeric' }).format(new Date(year, 0, 1))
}

/** Monday first, as the calendar's grid is laid out. */
function weekdays(lang) {
  const fmt = new Intl.DateTimeFormat(tagOf(lang), { weekday: 'short' })
  return [0, 1, 2, 3, 4, 5, 6].map((i) => fmt.format(new Date(2024, 0, 1 + i)))
}

function size(lang, bytes) {
  return `${new Intl.NumberFormat(tagOf(lang), { maximumFractionDigits: 1, minimumFractionDigits: 1 }).format(bytes / 1024 / 1024)} MB`
}

/** One object, so the page reads `fmt.date(…)` and the names stay free for its own variables. */
exports.fmt = { date, dateTime, clock, monthName, yearName, weekdays, size }
