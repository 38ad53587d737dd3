import { expect, it } from 'vitest'
import { latestUserText } from './user-text.ts'

it('takes only what the person typed: text blocks of user-sourced messages, not plugin notices or images', () => {
  expect(
    latestUserText([
      {
        source: { kind: 'user' },
        content: [
          { type: 'text', text: '我最爱的茶' },
          { type: 'image', data: 'x' },
        ],
      },
      { source: { kind: 'plugin' }, content: [{ type: 'text', text: 'Current runtime context.' }] },
      { source: { kind: 'user' }, content: [{ type: 'text', text: '是什么？ ' }] },
    ]),
  ).toBe('我最爱的茶\n是什么？')
  expect(latestUserText([{ source: { kind: 'plugin' }, content: [{ type: 'text', text: 'x' }] }])).toBe('')
  expect(latestUserText([{ source: { kind: 'user' }, content: 'not blocks' }])).toBe('')
})
