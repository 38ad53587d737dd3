'use strict'
// The page's building blocks, drawn with DSH's own parts: the `Button` of
// @deepseek-ai/dsh-client-ui-primitives and DSH's `--dsw-alias-*` design tokens, so the section looks
// like the rest of Settings (the Setting-Cell row: 16px padding, hairline separator) in both themes.
const React = require('react')
const h = React.createElement

let primitives = {}
try {
  primitives = require('@deepseek-ai/dsh-client-ui-primitives')
} catch {
  primitives = {}
}

const tok = (name, fallback) => `var(--dsw-alias-${name}, ${fallback})`
const COLOR = {
  label: tok('label-primary', 'inherit'),
  dim: tok('label-tertiary', 'rgba(128,128,128,0.9)'),
  border: tok('border-l2', 'rgba(128,128,128,0.25)'),
  field: tok('bg-layer-1', 'transparent'),
  module: tok('bg-module-platform', 'rgba(128,128,128,0.08)'),
  brand: tok('brand-primary', 'rgb(190, 90, 130)'),
  danger: tok('label-danger', 'rgb(200, 60, 60)'),
  success: tok('label-success', 'rgb(40, 140, 80)'),
}
/** One width for every control, so the column lines up. */
const CONTROL_WIDTH = 260

/** A catalogue text whose `{placeholders}` are the person's data: each is its own element, marked as data, never translated. */
function tx(t, key, params = {}) {
  const template = t(key)
  const out = []
  let last = 0
  for (const m of template.matchAll(/\{(\w+)\}/g)) {
    out.push(template.slice(last, m.index))
    const v = params[m[1]]
    out.push(typeof v === 'number' ? String(v) : h('span', { key: `${m[1]}${m.index}`, 'data-cyrene-data': '' }, v === undefined ? m[0] : v))
    last = m.index + m[0].length
  }
  out.push(template.slice(last))
  return out
}

/** DSH's button; a button drawn with the same tokens if this DSH build does not hand the primitive out. */
function Button(props) {
  const { variant = 'outline', ...rest } = props
  if (typeof primitives.Button === 'function') return h(primitives.Button, { variant, size: 'md', ...rest })
  const primary = variant === 'primary'
  return h('button', {
    type: 'button',
    ...rest,
    style: {
      height: 36,
      padding: '0 14px',
      borderRadius: 18,
      font: 'inherit',
      fontSize: 14,
      cursor: rest.disabled ? 'not-allowed' : 'pointer',
      opacity: rest.disabled ? 0.4 : 1,
      border: primary ? 'none' : `1px solid ${COLOR.border}`,
      background: primary ? tok('button-primary-fill', 'rgb(77, 107, 254)') : 'transparent',
      color: primary ? tok('label-primary-foreground', '#fff') : COLOR.label,
      ...rest.style,
    },
  })
}

const fieldStyle = {
  boxSizing: 'border-box',
  width: CONTROL_WIDTH,
  height: 32,
  padding: '0 8px',
  border: `1px solid ${COLOR.border}`,
  borderRadius: 8,
  background: COLOR.field,
  color: COLOR.label,
  font: 'inherit',
  fontSize: 14,
}

function TextInput(props) {
  const { invalid, ...rest } = props
  return h('input', {
    type: 'text',
    ...rest,
    'aria-invalid': invalid ? 'true' : undefined,
    style: { ...fieldStyle, ...(invalid ? { borderColor: COLOR.danger } : {}) },
  })
}

function Select(props) {
  const { invalid, options, ...rest } = props
  return h(
    'select',
    { ...rest, 'aria-invalid': invalid ? 'true' : undefined, style: { ...fieldStyle, ...(invalid ? { borderColor: COLOR.danger } : {}), ...props.style } },
    options.map((o) => h('option', { key: o.value, value: o.value }, o.label)),
  )
}

/** An on/off switch (role=switch) in DSH's colours, instead of a bare checkbox. */
function Switch(props) {
  const { checked, onChange, label, disabled, name } = props
  return h(
    'button',
    {
      type: 'button',
      role: 'switch',
      name,
      'aria-checked': checked ? 'true' : 'false',
      'aria-label': label,
      disabled,
      onClick: () => onChange(!checked),
      style: {
        position: 'relative',
        width: 40,
        height: 22,
        flex: 'none',
        border: 'none',
        borderRadius: 11,
        padding: 0,
        cursor: disabled ? 'not-allowed' : 'pointer',
        opacity: disabled ? 0.5 : 1,
        background: checked ? COLOR.brand : COLOR.border,
      },
    },
    h('span', {
      style: { position: 'absolute', top: 2, left: checked ? 20 : 2, width: 18, height: 18, borderRadius: 9, background: '#fff', transition: 'left 120ms' },
    }),
  )
}

/** A settings row like DSH's own: title and hint on the left, the control on the right, feedback under the control. */
function Row(props) {
  return h(
    'div',
    { 'data-row': props.id, style: { display: 'flex', alignItems: 'flex-start', gap: 8, padding: '16px 0', borderBottom: `1px solid ${COLOR.border}` } },
    h(
      'div',
      { style: { flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 4, paddingRight: 24 } },
      h('div', { style: { fontSize: 14, lineHeight: '22px', color: COLOR.label } }, props.title),
      props.hint ? h('div', { style: { fontSize: 12, lineHeight: '18px', color: COLOR.dim } }, props.hint) : null,
    ),
    h(
      'div',
      { style: { width: CONTROL_WIDTH, display: 'flex', flexDirection: 'column', alignItems: 'flex-end', gap: 6 } },
      props.children,
      props.note ? h(Note, props.note) : null,
    ),
  )
}

/** Feedback beside the control that caused it: `tone` is ok, error or busy. */
function Note(props) {
  const color = props.tone === 'error' ? COLOR.danger : props.tone === 'ok' ? COLOR.success : COLOR.dim
  return h(
    'div',
    {
      role: props.tone === 'error' ? 'alert' : 'status',
      'data-note': props.id,
      style: { fontSize: 12, lineHeight: '18px', color, textAlign: 'right', maxWidth: CONTROL_WIDTH, ...props.style },
    },
    props.children,
    props.detail
      ? h('details', { style: { marginTop: 2, color: COLOR.dim } }, h('summary', null, props.detailLabel), h('code', { 'data-cyrene-data': '' }, props.detail))
      : null,
  )
}

function SectionTitle(props) {
  return h(
    'div',
    { style: { marginTop: 28 } },
    h('h3', { style: { margin: 0, fontSize: 16, fontWeight: 600, color: COLOR.label } }, props.children),
    props.hint ? h('div', { style: { fontSize: 12, marginTop: 4, color: COLOR.dim } }, props.hint) : null,
  )
}

/** Data from the person's store (memories, titles, names): shown as written, in whatever language it is. */
function Data(props) {
  return h(props.as || 'span', { 'data-cyrene-data': '', style: props.style }, props.children)
}

module.exports = { COLOR, tx, Button, TextInput, Select, Switch, Row, Note, SectionTitle, Data }
