import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { tokenize, tokenizerSignature, TOKENIZER_VERSION } from './tokenize.ts'

const shared = (a: string, b: string): string[] => {
  const right = new Set(tokenize(b))
  return [...new Set(tokenize(a))].filter((t) => right.has(t))
}

describe('tokenize: Chinese', () => {
  it('finds 喝茶 inside 喜欢喝茶', () => {
    expect(tokenize('我喜欢喝茶')).toContain('喝茶')
  })

  it('matches memories segmented differently through character pairs', () => {
    // The segmenter reads 她爱喝茶水 as 爱|喝|茶水: no word 喝茶, but the pair is there.
    expect(tokenize('她爱喝茶水')).toContain('喝茶')
    expect(shared('她爱喝茶水', '我喜欢喝茶')).toContain('喝茶')
  })

  it('emits every character as well, once, so one-character words can match', () => {
    const terms = tokenize('乌龙茶')
    expect(terms).toEqual(expect.arrayContaining(['乌龙茶', '乌龙', '龙茶', '乌', '龙', '茶']))
    expect(terms.filter((t) => t === '茶')).toHaveLength(1)
  })

  it('counts characters outside the BMP as one character', () => {
    expect(tokenize('𠀋𠀋')).toEqual(expect.arrayContaining(['𠀋', '𠀋𠀋']))
  })

  it('drops function characters but keeps topic characters', () => {
    const terms = tokenize('我的猫')
    expect(terms).toContain('猫')
    expect(terms).not.toContain('的')
    expect(terms).not.toContain('我')
  })

  it('does not count a two-character word twice because it is also a pair', () => {
    expect(tokenize('喝茶').filter((t) => t === '喝茶')).toHaveLength(1)
  })

  it('a demonstrative with its classifier is no term (我家那只龟, 易方达那只 share nothing of it); the thing after it is', () => {
    for (const text of ['我家那只龟', '在支付宝买的易方达那只', '这台电脑', '哪家医院']) {
      const terms = tokenize(text)
      for (const pair of ['那只', '这台', '哪家']) expect(terms).not.toContain(pair)
    }
    expect(tokenize('这台电脑')).toContain('电脑')
    expect(tokenize('我家那只龟')).toContain('龟')
  })
})

describe('tokenize: English', () => {
  it('folds case, plurals and -ed/-ing forms to one term', () => {
    const forms = ['Painting', 'paintings', 'PAINTED', 'paints', 'paint']
    const terms = forms.map((f) => tokenize(f))
    for (const t of terms) expect(t).toEqual(terms[0])
  })

  it('removes stop words and single letters', () => {
    expect(tokenize('What did I do with the a of it?')).toEqual([])
  })

  it('drops possessive endings', () => {
    expect(tokenize("Caroline's")).toEqual(tokenize('Caroline'))
  })

  it("drops a contraction, so where'd, we'll and they're are their stop words, and keeps n't apart", () => {
    expect(tokenize("where'd we'll they're I’m you've")).toEqual([])
    expect(tokenize("Kevin'll")).toEqual(tokenize('Kevin'))
    expect(tokenize("can't")).toEqual(['cant'])
  })

  it('keeps numbers', () => {
    expect(tokenize('3 kids in 2023')).toEqual(['3', 'kid', '2023'])
  })
})

describe('tokenize: mixed and messy text', () => {
  it('indexes both scripts of a mixed sentence', () => {
    const terms = tokenize('周末在Starbucks喝了两杯lattes')
    expect(terms).toContain('starbuck')
    expect(terms).toEqual(expect.arrayContaining(tokenize('latte')))
    expect(terms).toContain('周末')
  })

  it('folds full-width letters to ASCII', () => {
    expect(tokenize('ＴＥＡ')).toEqual(tokenize('tea'))
  })

  it('ignores zero-width characters inside words', () => {
    expect(tokenize('喝\u200B茶')).toContain('喝茶')
    expect(tokenize('pain\u200Dting')).toEqual(tokenize('painting'))
  })

  it('treats control characters as spaces', () => {
    expect(tokenize('green\u0000tea')).toEqual(tokenize('green tea'))
  })

  it('returns nothing for empty, blank or non-word input', () => {
    expect(tokenize('')).toEqual([])
    expect(tokenize('   \n\t ')).toEqual([])
    expect(tokenize('!!! ??? 。。。 🙂')).toEqual([])
    expect(tokenize(undefined as unknown as string)).toEqual([])
  })

  it('survives lone surrogates', () => {
    expect(() => tokenize('tea\uD800time\uDC00茶')).not.toThrow()
    expect(tokenize('tea\uD800time')).toEqual(expect.arrayContaining(['tea']))
  })

  it('reads at most maxChars of a huge text', () => {
    const huge = '喝茶 tea '.repeat(200_000)
    const terms = tokenize(huge, 1000)
    expect(terms.length).toBeGreaterThan(0)
    expect(terms.length).toBeLessThan(1000)
  })

  it('never throws and only emits lower-case terms without spaces', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        for (const term of tokenize(text)) {
          expect(term.length).toBeGreaterThan(0)
          expect(term).toBe(term.toLowerCase())
          expect(term).not.toMatch(/\s/)
        }
      }),
    )
  })
})

describe('tokenizerSignature', () => {
  it('names the rule version, the ICU data and the folding table', () => {
    expect(tokenizerSignature()).toMatch(new RegExp(`^tok${TOKENIZER_VERSION}/icu${process.versions.icu}/opencc\\d+$`))
  })
  it('folds traditional characters: 貓 and 猫, 藥 and 药, 媽 and 妈 are the same terms', () => {
    expect(tokenize('我的貓吃了藥，媽媽說')).toEqual(tokenize('我的猫吃了药，妈妈说'))
  })
  it('leaves out pairs with a stop character and words made only of stop characters', () => {
    const terms = tokenize('我的猫叫什么')
    expect(terms).not.toContain('我的')
    expect(terms).toContain('猫')
    expect(terms).toContain('叫')
  })
})
