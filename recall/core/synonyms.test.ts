import { describe, expect, it } from 'vitest'
import { colloquialSynonyms } from './synonyms.ts'

describe('colloquialSynonyms', () => {
  it('links the words of a group both ways, and nothing else', () => {
    expect(colloquialSynonyms('对象')).toContain('男朋友')
    expect(colloquialSynonyms('男朋友')).toContain('对象')
    expect(colloquialSynonyms('妈')).toEqual(expect.arrayContaining(['妈妈', '母亲']))
    expect(colloquialSynonyms('对象')).not.toContain('对象')
    expect(colloquialSynonyms('钢琴')).toEqual([])
  })

  it('a word in two groups has the words of both (猫: its own, and 宠物)', () => {
    expect(colloquialSynonyms('猫')).toEqual(expect.arrayContaining(['猫咪', '宠物']))
  })
})
