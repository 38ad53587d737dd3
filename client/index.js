'use strict'
// Browser half of dsh-cyrene-philia093-0: one section in DSH web's Settings. Its texts are the
// dictionaries `cyrene` {zh, en} registered in DSH's locale service (`ctx.locale.register`), read
// through the bound `t`; the active language (`ctx.locale.getLocale().active`) also picks the
// format of dates and times, and is reported to the host (`POST /locale`, `locale/change`).
const React = require('react')
const { NS, zh, en } = require('./i18n.js')
const { Page } = require('./page.js')
const { postLocale } = require('./api.js')

exports.name = 'dsh-cyrene-philia093-0-client'
exports.inject = ['slots', 'locale']

exports.apply = function apply(ctx) {
  const t = ctx.locale.bind(NS)
  ctx.effect(() => ctx.locale.register(NS, { zh, en }), 'cyrene: settings page dictionaries')
  const language = () => (ctx.locale.getLocale().active === 'zh' ? 'zh' : 'en')
  // The host answers chat commands in the page's language when DSH stores none (decision 076): told
  // on load, on every switch, and on every (re)connection, since a restarted host has forgotten it.
  const report = () => {
    postLocale(language).catch((error) => console.warn('cyrene: could not tell the host the page language', error))
  }
  report()
  ctx.on('locale/change', report)
  ctx.on('connection/reset', report)
  // The slot hands the section its bound `t` (a new render on every locale change); the closure's is the same dictionary.
  const Section = (props) => React.createElement(Page, { t: typeof props.t === 'function' ? props.t : t, lang: language() })
  ctx.slots.inject('settings.section', () =>
    ctx.slots.register({ name: 'settings.section', id: 'cyrene', order: 90, label: () => t('nav'), locale: NS }, Section),
  )
}
