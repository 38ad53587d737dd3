import { describe, expect, it } from 'vitest'
import { impliedTopics } from './asked-topics.ts'
import { RecallIndex } from './recall-index.ts'

describe('a topic named only by the frame of the question', () => {
  it('reads an occupation question, in Chinese, Cantonese and English', () => {
    for (const q of ['我是干什么的', '我爸是做什么的？', '她做啥的', '他干哪行', '老豆做咩工？']) expect(impliedTopics(q)).toEqual(['工作'])
    for (const q of ['what do i do for a living?', 'what does kevin do?']) expect(impliedTopics(q)).toEqual(['job'])
  })

  it('names nothing for an errand, a past doing, or a question that already says the word', () => {
    for (const q of [
      '我去北京干什么',
      '我昨天做了什么',
      '我家那位在哪里上班、做啥的？',
      '我是做什么工作的',
      'what did i do last weekend?',
      'what do i do at work?',
      '你姐什么职业',
      "what's my sister's occupation",
    ])
      expect(impliedTopics(q)).toEqual([])
  })

  const store = (): RecallIndex => {
    const index = new RecallIndex({})
    index.add({ id: 'job', text: '我在字节跳动上班，做后端开发', at: '2026-01-05T00:00:00Z', source: 'entry' })
    index.add({ id: 'dad', text: '爸爸是中学数学老师，明年就退休了', at: '2026-01-12T00:00:00Z', source: 'entry' })
    index.add({ id: 'cat', text: '我养了一只叫团子的橘猫', at: '2026-01-19T00:00:00Z', source: 'entry' })
    return index
  }
  const ids = (hits: readonly { id: string }[]): string[] => hits.map((h) => h.id)

  it('我是干什么的, all of it stop words, finds the memory about work', () => {
    expect(ids(store().search('我是干什么的', { now: Date.parse('2026-02-01T00:00:00Z') }))).toContain('job')
  })

  it('stays below the words the question holds: 我爸是做什么的 still finds the father first, whose memory says no 工作', () => {
    expect(ids(store().search('我爸是做什么的？', { now: Date.parse('2026-02-01T00:00:00Z') }))[0]).toBe('dad')
  })
})
