import { describe, expect, it } from 'vitest'
import { otherLanguage } from '../tests/harness/language.ts'
import { describeBug, describeSystemFailure, EXIT } from './failures.ts'

/**
 * Issue 22, decision 082: when the system refuses (disk full, a read-only
 * file system, a disk error, a path conflict, permission) or a bug stops a
 * command, the message is in the invocation's language; English keeps the
 * sentence it had. (cli/system-errors.test.ts makes the system refuse for real.)
 */
function errno(code: string, path: string, syscall = 'open'): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${syscall} '${path}'`), { code, path, syscall })
}

const PATH = '/nonexistent-cyrene-test/store/日/2026-01-01.md'

describe('system failures in the person’s language (decision 082)', () => {
  const failures = [errno('ENOSPC', PATH), errno('EDQUOT', PATH), errno('EROFS', PATH), errno('EIO', PATH), errno('EISDIR', PATH), errno('EACCES', PATH)]
  for (const lang of ['zh', 'en'] as const)
    it(`${lang}: each failure says what happened and what to do, in one language`, () => {
      for (const [i, e] of failures.entries()) {
        const command = ['memory write', 'memory import', 'restore', 'memory anchor write', 'doctor', 'memory write'][i]!
        const r = describeSystemFailure(e, { command, argv: [], lang })
        expect(r?.exit).toBe(EXIT.system)
        expect(otherLanguage(lang, r!.message), r!.message).toEqual([])
      }
      expect(otherLanguage(lang, describeBug(new TypeError('x is undefined'), false, lang).replace('TypeError: x is undefined', ''))).toEqual([])
    })

  it('English keeps its sentences', () => {
    expect(describeSystemFailure(errno('EROFS', PATH), { command: 'memory write', argv: [] })?.message).toBe(
      `read-only file system: ${PATH}. Nothing was changed. Remount it read-write, or point DSH_HOME (or --root) at a writable place.`,
    )
    expect(describeSystemFailure(errno('ENOSPC', PATH), { command: 'memory import', argv: [], lang: 'en' })?.message).toBe(
      `disk full: no space left for ${PATH}. Entries imported before the failure stay in the store; once it is fixed, run the same command again — what is already imported is recognised and skipped. Free some space on that disk (df -h '/nonexistent-cyrene-test/store/日' shows the space, df -i '/nonexistent-cyrene-test/store/日' the files left) and try again.`,
    )
    expect(describeBug(new TypeError('x is undefined'), false)).toBe(
      'unexpected error: TypeError: x is undefined — this is a bug in cyrene; please report it with the command you ran. Run again with CYRENE_DEBUG=1 to see where it happened.',
    )
  })

  it('Chinese says it in Chinese', () => {
    expect(describeSystemFailure(errno('EROFS', PATH), { command: 'memory write', argv: [], lang: 'zh' })?.message).toBe(
      `只读文件系统：${PATH}。什么都没改。把它重新挂载为可读写，或者把 DSH_HOME（或 --root）指向一个能写的地方。`,
    )
  })
})
