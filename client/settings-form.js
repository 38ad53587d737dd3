'use strict'
// The person's settings (元/settings.json): nickname, voice style, dream time, SiYuan. The token is
// never here, only whether it is set. A refused save marks the wrong fields beside them; the
// outcome of a save is said beside the Save button.
const React = require('react')
const { Button, Row, Select, Switch, TextInput, tx } = require('./ui.js')
const { fmt } = require('./format.js')
const h = React.createElement

/** The 道韵 levels the rails ship, by catalogue key; a level from the person's own styles file is shown as written. */
const STYLE_KEYS = { 清简: 'style.plain', 温润: 'style.warm', 绮丽: 'style.ornate' }

/** The settings key each field saves, for marking a refused one and naming what applies when. */
const FIELD_KEYS = {
  nickname: 'nickname',
  style: 'style',
  'dream.time': 'dreamTime',
  'siyuan.enabled': 'siyuanEnabled',
  'siyuan.url': 'siyuanUrl',
  'siyuan.notebook': 'siyuanNotebook',
  'siyuan.tokenEnv': 'siyuanTokenEnv',
  'git.remote': 'gitRemote',
}

function styleOptions(t, current) {
  const names = [...new Set(['清简', '温润', '绮丽', current].filter((v) => v !== ''))]
  return [{ value: '', label: t('style.default') }, ...names.map((v) => ({ value: v, label: STYLE_KEYS[v] ? t(STYLE_KEYS[v]) : v }))]
}

/** Dream times every quarter hour, written in the page's language; a saved time off the grid stays listed. */
function timeOptions(lang, current) {
  const values = []
  for (let m = 0; m < 24 * 60; m += 15) values.push(`${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`)
  if (current && !values.includes(current)) values.push(current)
  return values.sort().map((v) => ({ value: v, label: fmt.clock(lang, v) }))
}

function badHint(t, key) {
  const params = { example: 'http://127.0.0.1:6806', scheme: 'http:// / https://' }
  if (key === 'dream.time') params.example = '23:30'
  if (key === 'git.remote') params.example = 'git@host:me/memory.git'
  const catalogueKey = `bad.${key}`
  return tx(t, t(catalogueKey) === catalogueKey ? 'bad.other' : catalogueKey, params)
}

/** What a save answered, in words: saved (now / after a restart), nothing changed, or which fields were refused. */
function savedWords(t, lang, answer) {
  if (answer.code === 'unchanged') return [t('answer.unchanged')]
  const names = (keys) => (keys || []).map((k) => (FIELD_KEYS[k] ? t(FIELD_KEYS[k]) : k)).join(lang === 'zh' ? '、' : ', ')
  const out = [t('answer.saved')]
  if ((answer.appliedNow || []).length > 0) out.push(' ', t('answer.savedNow', { fields: names(answer.appliedNow) }))
  if ((answer.needRestart || []).length > 0) out.push(' ', t('answer.savedRestart', { fields: names(answer.needRestart) }))
  return out
}

function SettingsForm(props) {
  const { t, lang, values, sync, onSave } = props
  const [draft, setDraft] = React.useState(() => ({
    nickname: values.nickname,
    style: values.style,
    dreamTime: values.dream.time,
    siyuanEnabled: values.siyuan.enabled,
    siyuanUrl: values.siyuan.url,
    siyuanNotebook: values.siyuan.notebook,
    siyuanTokenEnv: values.siyuan.tokenEnv,
    gitRemote: values.git ? values.git.remote : '',
  }))
  const [result, setResult] = React.useState(null)
  const [busy, setBusy] = React.useState(false)
  const bad = new Set(result && result.code === 'bad-setting' ? result.keys || [] : [])
  const set = (key) => (event) => {
    const value = event.target.value
    setDraft((d) => ({ ...d, [key]: value }))
  }
  const submit = async (event) => {
    event.preventDefault()
    setBusy(true)
    setResult({ code: 'working' })
    setResult(
      await onSave({
        nickname: draft.nickname,
        style: draft.style,
        dream: { time: draft.dreamTime },
        siyuan: { enabled: draft.siyuanEnabled, url: draft.siyuanUrl, notebook: draft.siyuanNotebook, tokenEnv: draft.siyuanTokenEnv },
        git: { remote: draft.gitRemote },
      }),
    )
    setBusy(false)
  }
  const fieldNote = (key) => (bad.has(key) ? { id: key, tone: 'error', children: badHint(t, key) } : null)
  const text = (name, key) =>
    h(TextInput, { name, value: draft[name], invalid: bad.has(key), onChange: set(name), ...(name === 'nickname' ? { maxLength: 40 } : {}) })
  // Why a save was refused, in the page's language when the host worded it (decision 083).
  const why = result ? (result.words && result.words[lang]) || result.error : undefined
  const refused = (children) => ({ id: 'save', tone: 'error', children, ...(why ? { detail: why, detailLabel: t('details') } : {}) })
  let saveNote = null
  if (result && result.code === 'working') saveNote = { id: 'save', tone: 'busy', children: t('working') }
  else if (result && result.ok) saveNote = { id: 'save', tone: 'ok', children: savedWords(t, lang, result) }
  else if (result && result.code === 'bad-setting') saveNote = refused(t('answer.bad-setting', { count: bad.size }))
  else if (result && result.code === 'settings-file-broken') saveNote = refused(tx(t, 'answer.settings-file-broken', { file: '元/settings.json' }))
  else if (result) saveNote = refused(tx(t, 'answer.error', { command: '/cyrene doctor' }))
  return h(
    'form',
    { onSubmit: submit, 'data-cyrene': 'settings-form' },
    h(Row, { id: 'nickname', title: t('nickname'), hint: t('nickname.hint'), note: fieldNote('nickname') }, text('nickname', 'nickname')),
    h(
      Row,
      { id: 'style', title: t('style'), hint: t('style.hint'), note: fieldNote('style') },
      h(Select, { name: 'style', value: draft.style, invalid: bad.has('style'), options: styleOptions(t, draft.style), onChange: set('style') }),
    ),
    h(
      Row,
      { id: 'dreamTime', title: t('dreamTime'), hint: t('dreamTime.hint'), note: fieldNote('dream.time') },
      h(Select, {
        name: 'dreamTime',
        value: draft.dreamTime,
        invalid: bad.has('dream.time'),
        options: timeOptions(lang, draft.dreamTime),
        onChange: set('dreamTime'),
      }),
    ),
    h(Row, { id: 'gitRemote', title: t('gitRemote'), hint: t('gitRemote.hint'), note: fieldNote('git.remote') }, text('gitRemote', 'git.remote')),
    h(
      Row,
      { id: 'siyuanEnabled', title: t('siyuanEnabled'), hint: t('siyuanEnabled.hint'), note: fieldNote('siyuan.enabled') },
      h(Switch, {
        name: 'siyuanEnabled',
        label: t('siyuanEnabled'),
        checked: draft.siyuanEnabled,
        onChange: (v) => setDraft((d) => ({ ...d, siyuanEnabled: v })),
      }),
    ),
    h(Row, { id: 'siyuanUrl', title: t('siyuanUrl'), note: fieldNote('siyuan.url') }, text('siyuanUrl', 'siyuan.url')),
    h(Row, { id: 'siyuanNotebook', title: t('siyuanNotebook'), note: fieldNote('siyuan.notebook') }, text('siyuanNotebook', 'siyuan.notebook')),
    h(
      Row,
      {
        id: 'siyuanTokenEnv',
        title: t('siyuanTokenEnv'),
        hint: h(
          'span',
          { 'data-token': sync && sync.tokenPresent ? 'present' : 'missing' },
          sync && sync.tokenPresent ? `✓ ${t('tokenPresent')}` : `✗ ${t('tokenMissing')}`,
        ),
        note: fieldNote('siyuan.tokenEnv'),
      },
      text('siyuanTokenEnv', 'siyuan.tokenEnv'),
    ),
    h(Row, { id: 'save', title: '', note: saveNote }, h(Button, { type: 'submit', variant: 'primary', disabled: busy, 'data-action': 'save' }, t('save'))),
  )
}

exports.SettingsForm = SettingsForm
