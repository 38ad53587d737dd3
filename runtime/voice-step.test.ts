import { expect, it } from 'vitest'
import type { Context } from '@deepseek-ai/cordis'
import { nicknameOf } from './voice-step.ts'

/** A context that hands out the given services by name (what `ctx.get` does for these two). */
const ctxWith = (services: Record<string, unknown>) => ({ get: (name: string) => services[name] }) as unknown as Context

it('{{user_nickname}} and rail 120: the nickname setting, then whale-persona userName, then the row default; a throwing service falls back', () => {
  const memory = (nickname: string | undefined) => ({ nickname: () => nickname })
  const whale = (userName: string | undefined) => ({ userName: () => userName })
  expect(nicknameOf(ctxWith({ cyreneMemory: memory('小满'), whalePersona: whale('Alex') }), '伙伴')).toBe('小满')
  expect(nicknameOf(ctxWith({ cyreneMemory: memory(undefined), whalePersona: whale('Alex') }), '伙伴')).toBe('Alex')
  expect(nicknameOf(ctxWith({ cyreneMemory: memory(undefined), whalePersona: whale(undefined) }), '伙伴')).toBe('伙伴')
  expect(nicknameOf(ctxWith({}), '伙伴')).toBe('伙伴')
  expect(
    nicknameOf(
      ctxWith({
        cyreneMemory: {
          nickname: () => {
            throw new Error('disk')
          },
        },
      }),
      '伙伴',
    ),
  ).toBe('伙伴')
})
