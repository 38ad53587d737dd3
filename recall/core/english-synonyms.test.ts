import { describe, expect, it } from 'vitest'
import { englishSynonyms } from './english-synonyms.ts'
import { RecallIndex } from './recall-index.ts'
import { stemEnglish } from './stem.ts'

const AT = '2026-01-01T00:00:00Z'
const NOW = new Date('2026-06-15T12:00:00Z')

describe('englishSynonyms: the words of one thing in everyday English, as the tokenizer stems them', () => {
  it('links British and American words and the home and formal ones, both ways', () => {
    expect(englishSynonyms('subway')).toContain('metro')
    expect(englishSynonyms('metro')).toContain('subway')
    expect(englishSynonyms('grandma').length).toBeGreaterThan(2)
    expect(englishSynonyms('movi')).toContain('film')
    expect(englishSynonyms('notaword')).toEqual([])
  })

  it('links a time to how often (month ~ monthly), a kind to its everyday instance (seafood ~ shellfish, climb ~ boulder)', () => {
    expect(englishSynonyms('month')).toContain('monthli')
    expect(englishSynonyms('seafood')).toContain('shellfish')
    expect(englishSynonyms('climb')).toContain('boulder')
    expect(englishSynonyms(stemEnglish('antibiotic'))).toContain(stemEnglish('penicillin'))
    expect(englishSynonyms(stemEnglish('penicillin'))).not.toContain(stemEnglish('amoxicillin'))
  })

  it('links the short forms people type to the word (bday, bro, undergrad, pic)', () => {
    expect(englishSynonyms('bday')).toContain(stemEnglish('birthday'))
    expect(englishSynonyms('bro')).toContain(stemEnglish('brother'))
    expect(englishSynonyms(stemEnglish('undergrad'))).toContain(stemEnglish('undergraduate'))
    expect(englishSynonyms('pic')).toContain(stemEnglish('photo'))
  })
})

describe('RecallIndex: a memory worded in another English word than the dictionary or the question', () => {
  const store = (options = {}): RecallIndex => {
    const index = new RecallIndex(options)
    index.add({ id: 'commute', text: 'My commute is now 40 minutes by metro, line 2 then line 5.', at: AT, source: 'entry' })
    index.add({ id: 'film', text: 'Watched an old French film with Susu, fell asleep halfway.', at: AT, source: 'entry' })
    index.add({ id: 'swim', text: 'Learning to swim at the community pool on Sundays.', at: AT, source: 'entry' })
    index.add({ id: 'shoes', text: 'My new running shoes are Asics, size 38.', at: AT, source: 'entry' })
    return index
  }

  it('a Chinese word whose dictionary English is not the memory’s (地铁: subway, the memory: metro)', () => {
    expect(store().search('我现在坐地铁上班要多久？', { now: NOW })[0]?.id).toBe('commute')
    expect(store({ synonymWeight: 0 }).search('我现在坐地铁上班要多久？', { now: NOW, abstain: false })[0]?.id).not.toBe('commute')
  })

  it('"every month" finds a monthly transfer, and "going to" is no topic that outweighs it', () => {
    const index = store()
    index.add({ id: 'mum', text: 'Bumped the monthly transfer to mum up to RMB 3,500.', at: AT, source: 'entry' })
    index.add({ id: 'going', text: 'Going to the night market with Kevin on Friday.', at: AT, source: 'entry' })
    expect(index.search('How much is going to my mom every month?', { now: NOW })[0]?.id).toBe('mum')
  })

  it('an English question in another word than the memory (movie for film)', () => {
    expect(store().search('Which movie did I watch with Susu?', { now: NOW })[0]?.id).toBe('film')
  })

  it('an English short form reaches a Chinese memory through its word (bday: birthday → 生日)', () => {
    const index = store()
    index.add({ id: 'bday', text: '我弟今天生日，给他买了个游戏机。', at: AT, source: 'entry' })
    expect(index.search('What did I get my brother for his bday?', { now: NOW })[0]?.id).toBe('bday')
    expect(index.search('bday', { now: NOW, abstain: false }).map((h) => h.id)).toContain('bday')
  })
})
