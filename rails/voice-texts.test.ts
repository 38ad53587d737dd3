import { describe, expect, it } from 'vitest'
import { charCount } from '../prompt/index.ts'
import { chooseForm } from './form-chooser.ts'
import { parseForms, parseStyles, voiceTexts } from './voice-texts.ts'
import { FORM_CAP, formBlock } from './form-rail.ts'
import { STYLE_CAP, styleBlock } from './style-rail.ts'

describe('forms and styles as data a person edits', () => {
  it('the shipped files parse cleanly: three forms with scenes and hours, three style levels with 温润 the default, each whole within its rail', () => {
    const texts = voiceTexts()
    expect(texts.problems).toEqual([])
    expect(texts.source).toEqual({ forms: 'shipped', styles: 'shipped' })
    expect(texts.styles.map((s) => s.name)).toEqual(['清简', '温润', '绮丽'])
    expect(texts.defaultStyle).toBe('温润')
    expect(texts.forms.find((f) => f.name === '迷迷')?.hours).toEqual({ from: 22, to: 7 })
    for (const form of texts.forms) {
      const text = formBlock(chooseForm([form], { text: '', hour: 0 })!).render(FORM_CAP)
      expect(charCount(text)).toBeLessThanOrEqual(FORM_CAP)
      expect(text).not.toContain('…')
    }
    for (const style of texts.styles) {
      const text = styleBlock(style).render(STYLE_CAP)
      expect(charCount(text)).toBeLessThanOrEqual(STYLE_CAP)
      expect(text).not.toContain('…')
    }
  })

  it('a store override that parses replaces the shipped file', () => {
    const texts = voiceTexts('## 猫\n场景：猫, cat\n时段：0-24\n喵喵地说话。\n', '## 短\n短句。\n## 长（默认）\n长句。\n')
    expect(texts.source).toEqual({ forms: 'store', styles: 'store' })
    expect(texts.forms).toEqual([{ name: '猫', scenes: ['猫', 'cat'], hours: { from: 0, to: 0 }, text: '喵喵地说话。' }])
    expect(texts.defaultStyle).toBe('长')
  })

  it('a broken override falls back to the shipped file as a whole, and says why (for the doctor)', () => {
    const texts = voiceTexts('## 猫\n时段：晚上\n喵。\n## 猫\n喵喵。', '没有小标题')
    expect(texts.source).toEqual({ forms: 'shipped', styles: 'shipped' })
    expect(texts.forms.map((f) => f.name)).toEqual(['小昔涟', '迷迷', '德谬歌'])
    expect(texts.problems.join('\n')).toMatch(/时段「晚上」/)
    expect(texts.problems.join('\n')).toMatch(/appears twice/)
    expect(texts.problems.join('\n')).toMatch(/元\/styles.md: no 「## 名字」 section; using the shipped styles/)
  })

  it('parsing is pure and reports an empty description, a missing name and two defaults', () => {
    expect(parseForms('## \n场景：a\n').problems.length).toBeGreaterThan(0)
    expect(parseForms('## a\n场景：a\n').problems).toEqual(['forms.md line 1: the form 「a」 has no description'])
    expect(parseStyles('## a（默认）\nx\n## b（默认）\ny').problems).toEqual(['styles.md line 3: more than one 「（默认）」'])
  })
})
