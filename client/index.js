'use strict'
// Browser half of dsh-cyrene-philia093-0: one section in DSH web's Settings, labelled in DSH's locale.
const React = require('react')
const { NS, zh, en } = require('./i18n.js')
const { Page } = require('./page.js')

exports.name = 'dsh-cyrene-philia093-0-client'
exports.inject = ['slots', 'locale']

exports.apply = function apply(ctx) {
  const t = ctx.locale.bind(NS)
  ctx.effect(() => ctx.locale.register(NS, { zh, en }), 'cyrene: settings page dictionaries')
  // The slot hands the section its bound `t`; the closure's is the same dictionary, for safety.
  const Section = (props) => React.createElement(Page, { t: typeof props.t === 'function' ? props.t : t })
  ctx.slots.inject('settings.section', () =>
    ctx.slots.register({ name: 'settings.section', id: 'cyrene', order: 90, label: () => t('nav'), locale: NS }, Section),
  )
}
