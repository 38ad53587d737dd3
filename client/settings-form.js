'use strict'
// The person's settings (元/settings.json): nickname, voice, default form, dream time, SiYuan. The token is never here.
const React = require('react')
const h = React.createElement

function Field(props) {
  return h(
    'label',
    { style: { display: 'grid', gridTemplateColumns: '180px 1fr', alignItems: 'center', gap: 8, margin: '6px 0' } },
    h('span', null, props.label),
    props.children,
  )
}

const input = { padding: '4px 6px', font: 'inherit', maxWidth: 320 }

function SettingsForm(props) {
  const { t, values, sync, onSave, busy } = props
  const [draft, setDraft] = React.useState(() => ({
    nickname: values.nickname,
    style: values.style,
    form: values.form,
    dreamTime: values.dream.time,
    siyuanEnabled: values.siyuan.enabled,
    siyuanUrl: values.siyuan.url,
    siyuanNotebook: values.siyuan.notebook,
    siyuanTokenEnv: values.siyuan.tokenEnv,
    gitRemote: values.git?.remote ?? '',
  }))
  const set = (key) => (event) => {
    const value = event.target.type === 'checkbox' ? event.target.checked : event.target.value
    setDraft((d) => ({ ...d, [key]: value }))
  }
  const submit = (event) => {
    event.preventDefault()
    onSave({
      nickname: draft.nickname,
      style: draft.style,
      form: draft.form,
      dream: { time: draft.dreamTime },
      siyuan: { enabled: draft.siyuanEnabled, url: draft.siyuanUrl, notebook: draft.siyuanNotebook, tokenEnv: draft.siyuanTokenEnv },
      git: { remote: draft.gitRemote },
    })
  }
  return h(
    'form',
    { onSubmit: submit, 'data-cyrene': 'settings-form' },
    h(Field, { label: t('nickname') }, h('input', { name: 'nickname', style: input, value: draft.nickname, maxLength: 20, onChange: set('nickname') })),
    h(
      Field,
      { label: t('style') },
      h(
        'select',
        { name: 'style', style: input, value: draft.style, onChange: set('style') },
        // The 道韵 levels the rails ship; a level from the person's own styles file stays selectable.
        ['', ...new Set(['清简', '温润', '绮丽', draft.style])]
          .filter((v, i) => v !== '' || i === 0)
          .map((v) => h('option', { key: v, value: v }, v === '' ? t('styleDefault') : v)),
      ),
    ),
    h(
      Field,
      { label: t('form') },
      h(
        'select',
        { name: 'form', style: input, value: draft.form, onChange: set('form') },
        h('option', { value: 'chat' }, t('formChat')),
        h('option', { value: 'work' }, t('formWork')),
      ),
    ),
    h(Field, { label: t('dreamTime') }, h('input', { name: 'dreamTime', type: 'time', style: input, value: draft.dreamTime, onChange: set('dreamTime') })),
    h(Field, { label: t('gitRemote') }, h('input', { name: 'gitRemote', style: input, value: draft.gitRemote, onChange: set('gitRemote') })),
    h(
      Field,
      { label: t('siyuanEnabled') },
      h('input', { name: 'siyuanEnabled', type: 'checkbox', checked: draft.siyuanEnabled, onChange: set('siyuanEnabled') }),
    ),
    h(Field, { label: t('siyuanUrl') }, h('input', { name: 'siyuanUrl', style: input, value: draft.siyuanUrl, onChange: set('siyuanUrl') })),
    h(
      Field,
      { label: t('siyuanNotebook') },
      h('input', { name: 'siyuanNotebook', style: input, value: draft.siyuanNotebook, onChange: set('siyuanNotebook') }),
    ),
    h(
      Field,
      { label: t('siyuanTokenEnv') },
      h(
        'span',
        null,
        h('input', { name: 'siyuanTokenEnv', style: input, value: draft.siyuanTokenEnv, onChange: set('siyuanTokenEnv') }),
        h('span', { style: { marginLeft: 8, fontSize: 12, opacity: 0.75 } }, sync && sync.tokenPresent ? `✓ ${t('tokenPresent')}` : `✗ ${t('tokenMissing')}`),
      ),
    ),
    h('button', { type: 'submit', disabled: busy, style: { marginTop: 8 } }, t('save')),
  )
}

exports.SettingsForm = SettingsForm
