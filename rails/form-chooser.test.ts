import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { chooseForm, sceneWordIn } from './form-chooser.ts'
import { voiceTexts } from './voice-texts.ts'

const forms = voiceTexts().forms

describe('chooseForm (rail 125)', () => {
  it('the shipped forms: scene words of the latest message first, then the time of day, then the first', () => {
    expect(forms.map((f) => f.name)).toEqual(['小昔涟', '迷迷', '德谬歌'])
    expect(chooseForm(forms, { text: '这个报错我调试了一下午', hour: 15 })).toMatchObject({ form: { name: '德谬歌' }, reason: 'scene' })
    expect(chooseForm(forms, { text: '晚安，有点睡不着', hour: 14 })).toMatchObject({ form: { name: '迷迷' }, reason: 'scene' })
    expect(chooseForm(forms, { text: '嗯', hour: 23 })).toMatchObject({ form: { name: '迷迷' }, reason: 'time' })
    expect(chooseForm(forms, { text: '嗯', hour: 3 })).toMatchObject({ form: { name: '迷迷' }, reason: 'time' })
    expect(chooseForm(forms, { text: '嗯', hour: 10 })).toMatchObject({ form: { name: '小昔涟' }, reason: 'time' })
  })

  it('a pinned form wins over scene and hour; an unknown pin is ignored', () => {
    expect(chooseForm(forms, { pinned: '德谬歌', text: '晚安', hour: 23 })).toMatchObject({ form: { name: '德谬歌' }, reason: 'pinned' })
    expect(chooseForm(forms, { pinned: '不存在', text: '晚安', hour: 12 })).toMatchObject({ form: { name: '迷迷' }, reason: 'scene' })
  })

  it('most scene words win, file order breaks a tie; no hours anywhere → the first form', () => {
    const two = [
      { name: 'a', scenes: ['猫', '狗'], text: 'a' },
      { name: 'b', scenes: ['猫', '鱼', '鸟'], text: 'b' },
    ]
    expect(chooseForm(two, { text: '猫和鱼', hour: 0 })?.form.name).toBe('b')
    expect(chooseForm(two, { text: '猫', hour: 0 })?.form.name).toBe('a')
    expect(chooseForm(two, { text: '', hour: 0 })).toMatchObject({ form: { name: 'a' }, reason: 'default' })
    expect(chooseForm([], { text: '', hour: 0 })).toBeUndefined()
  })

  it('Latin scene words match whole words, case-insensitive; CJK words as substrings', () => {
    expect(sceneWordIn('I hit a BUG today', 'bug')).toBe(true)
    expect(sceneWordIn('debugging', 'bug')).toBe(false)
    expect(sceneWordIn('a bug-fix', 'bug')).toBe(true)
    expect(sceneWordIn('我们去旅行吧', '旅行')).toBe(true)
  })

  it('any text and hour: always one of the forms, and the same answer for the same input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.integer({ min: 0, max: 23 }), (text, hour) => {
        const a = chooseForm(forms, { text, hour })
        expect(forms).toContain(a?.form)
        expect(chooseForm(forms, { text, hour })).toEqual(a)
      }),
    )
  })
})
