import { describe, expect, it } from 'vitest'
import { colloquialSynonyms } from './synonyms.ts'

describe('colloquialSynonyms', () => {
  it('links the words of a group both ways, and nothing else', () => {
    expect(colloquialSynonyms('对象')).toContain('男朋友')
    expect(colloquialSynonyms('男朋友')).toContain('对象')
    expect(colloquialSynonyms('妈')).toEqual(expect.arrayContaining(['妈妈', '母亲']))
    expect(colloquialSynonyms('对象')).not.toContain('对象')
    expect(colloquialSynonyms('桌子')).toEqual([])
  })

  it('the days of the week in their three ways; a kind beside its instances, never the instances beside each other', () => {
    expect(colloquialSynonyms('礼拜四')).toEqual(expect.arrayContaining(['星期四', '周四']))
    expect(colloquialSynonyms('钢琴')).toContain('乐器')
    expect(colloquialSynonyms('钢琴')).not.toContain('吉他')
    expect(colloquialSynonyms('抗生素')).toEqual(expect.arrayContaining(['青霉素', '头孢']))
    expect(colloquialSynonyms('青霉素')).not.toContain('头孢')
  })

  it('a word in two groups has the words of both (猫: its own, and 宠物)', () => {
    expect(colloquialSynonyms('猫')).toEqual(expect.arrayContaining(['猫咪', '宠物']))
  })
})
