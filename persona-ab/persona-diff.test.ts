import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { scratchDir } from '../tests/harness/scratch.ts'
import { personaDiff } from './persona-diff.ts'

function side(root: string, name: string, chat: string): string {
  const dir = join(root, name)
  mkdirSync(join(dir, 'persona'), { recursive: true })
  mkdirSync(join(dir, 'philosophy'), { recursive: true })
  writeFileSync(join(dir, 'persona', 'chat.md'), chat)
  writeFileSync(join(dir, 'philosophy', 'five.md'), '五育\n')
  return dir
}

describe('the persona diff the A/B report opens with (issue 22)', () => {
  it('a line appended on one side is in the diff, with package-relative paths', () => {
    const root = scratchDir('persona-diff')
    const diff = personaDiff(side(root, 'base', '你好\n'), side(root, 'change', '你好\n她会先问一句再回答。\n'))
    expect(diff).toContain('+她会先问一句再回答。')
    expect(diff).toContain('--- base/persona/chat.md')
    expect(diff).toContain('+++ change/persona/chat.md')
    expect(diff).not.toContain(root.slice(1))
    expect(diff).not.toContain('five.md')
  })

  it('the same persona on both sides is an empty diff', () => {
    const root = scratchDir('persona-diff')
    expect(personaDiff(side(root, 'base', '同\n'), side(root, 'change', '同\n'))).toBe('')
  })
})
