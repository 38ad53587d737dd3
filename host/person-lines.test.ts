import { describe, expect, it } from 'vitest'
import { personLinesOf, quoteOccurs } from './person-lines.ts'

describe('what the person said, and a quote of it', () => {
  it('a quote is found word for word, as a person reads it: widths, white space and its own end punctuation aside', () => {
    const said = ['我决定以后每周六都去爬山，这是给自己的约定！', 'I decided to   take the early train.']
    expect(quoteOccurs('我决定以后每周六都去爬山', said)).toBe(true)
    expect(quoteOccurs('「我决定以后每周六都去爬山。」', said)).toBe(true)
    expect(quoteOccurs('I decided to take the early train.', said)).toBe(true)
    expect(quoteOccurs('ＩＩ decided', said)).toBe(false)
    // A word of its own, a changed word, a reordered clause: not what they said.
    expect(quoteOccurs('我决定以后每周日都去爬山', said)).toBe(false)
    expect(quoteOccurs('这是给自己的约定，我决定以后每周六都去爬山', said)).toBe(false)
    expect(quoteOccurs('。', said)).toBe(false)
    expect(quoteOccurs('', said)).toBe(false)
  })

  it('only the person’s own messages count, not a plugin’s in the user role', () => {
    const events = [
      { type: 'user/message', data: { source: { kind: 'user' }, content: [{ type: 'text', text: '今天好累' }] } },
      { type: 'user/message', data: { source: { kind: 'plugin' }, content: [{ type: 'text', text: '【记忆命中】对方说……' }] } },
      { type: 'assistant/message', data: { content: [{ type: 'text', text: '辛苦了' }] } },
    ]
    expect(personLinesOf({ session: { events } })).toEqual(['今天好累'])
    expect(personLinesOf(undefined)).toEqual([])
  })
})
