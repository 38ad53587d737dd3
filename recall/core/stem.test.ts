import { describe, expect, it } from 'vitest'
import { americanSpelling, relatedForms, stemEnglish } from './stem.ts'

describe('stemEnglish', () => {
  it.each([
    ['cats', 'cat'],
    ['classes', 'class'],
    ['stories', 'stori'],
    ['story', 'stori'],
    ['movies', 'movi'],
    ['movie', 'movi'],
    ['tries', 'try'],
    ['tried', 'try'],
    ['skiing', 'ski'],
    ['boxes', 'box'],
    ['running', 'run'],
    ['painted', 'paint'],
    ['loving', 'love'],
    ['love', 'love'],
    ['loved', 'love'],
    ['hoping', 'hope'],
    ['hopping', 'hop'],
    ['planes', 'plane'],
    ['planned', 'plan'],
    ['notes', 'note'],
    ['gaming', 'game'],
    ['inviting', 'invit'],
    ['invite', 'invit'],
  ])('%s -> %s', (word, stem) => {
    expect(stemEnglish(word)).toBe(stem)
  })

  it.each(['bus', 'this', 'glass', 'thing', 'bring', 'need', 'tree', 'famous', 'sing'])('leaves %s alone', (word) => {
    expect(stemEnglish(word)).toBe(word)
  })

  it.each([
    ['spent', 'spend'],
    ['paid', 'pay'],
    ['bought', 'buy'],
    ['brought', 'bring'],
    ['wrote', 'write'],
    ['written', 'write'],
    ['found', 'find'],
  ])('reads the irregular past %s as the verb %s', (past, verb) => {
    expect(stemEnglish(past)).toBe(stemEnglish(verb))
  })

  it.each([
    ['teeth', 'tooth'],
    ['feet', 'foot'],
    ['children', 'child'],
    ['women', 'woman'],
    ['men', 'man'],
    ['mice', 'mouse'],
    ['wives', 'wife'],
  ])('reads the irregular plural %s as the noun %s', (plural, noun) => {
    expect(stemEnglish(plural)).toBe(stemEnglish(noun))
  })

  it('a plural that is as often a verb stays a suffix rule’s (leaves, lives)', () => {
    expect(stemEnglish('leaves')).toBe(stemEnglish('leave'))
    expect(stemEnglish('lives')).toBe(stemEnglish('live'))
  })

  it('leaves a past form alone where it is more often a word of its own (left, saw, won)', () => {
    expect(stemEnglish('left')).not.toBe(stemEnglish('leave'))
    expect(stemEnglish('saw')).toBe('saw')
    expect(stemEnglish('won')).toBe('won')
  })

  it('leaves short words, digits and non-ASCII words alone', () => {
    expect(stemEnglish('was')).toBe('was')
    expect(stemEnglish('2023s')).toBe('2023s')
    expect(stemEnglish('cafés')).toBe('cafés')
  })
})

describe('americanSpelling: a British stem as CC-CEDICT spells it', () => {
  it.each([
    ['favourite', 'favorit'],
    ['colour', 'color'],
    ['neighbours', 'neighbor'],
    ['organise', 'organiz'],
    ['centre', 'center'],
    ['travelled', 'travel'],
    ['programme', 'program'],
  ])('%s -> %s', (word, american) => {
    expect(americanSpelling(stemEnglish(word))).toBe(american)
  })

  it.each(['tour', 'hour', 'four', 'cat', 'all'])('no rule for %s', (word) => {
    expect(americanSpelling(stemEnglish(word))).toBeUndefined()
  })
})

describe('relatedForms', () => {
  it('gives the other words of a family, as tokenize emits them', () => {
    expect(relatedForms('anxious')).toContain(stemEnglish('anxiety'))
    expect(relatedForms(stemEnglish('allergic'))).toContain(stemEnglish('allergy'))
    expect(relatedForms(stemEnglish('promoted'))).toContain(stemEnglish('promotion'))
    expect(relatedForms('anxious')).not.toContain('anxious')
  })

  it('cuts no root shorter than four letters, and reads only plain words', () => {
    expect(relatedForms('tea')).toEqual([])
    expect(relatedForms('茶')).toEqual([])
    expect(relatedForms('icy').some((f) => f.startsWith('ic'))).toBe(false)
  })
})
