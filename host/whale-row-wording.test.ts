import { describe, expect, it } from 'vitest'
import { captureCommand, type WhalePersona } from './whale-row.ts'

/**
 * Issue 13: `/memory status` read like "Cyrene's memory is off". The switch is
 * whale-persona's candidate capture for this session; every answer says so.
 */
function fakeService(withConfig = true): WhalePersona {
  const on = new Set<string>()
  const service = {
    captureOn: (id: string) => on.has(id),
    setCapture: (id: string, value: boolean) => void (value ? on.add(id) : on.delete(id)),
    configFile: () => ({ path: '/home/x/.dsh/whale-persona/config.json', exists: withConfig }),
  }
  return service as unknown as WhalePersona
}

describe('/memory on|off|status wording (issue 13)', () => {
  it('status, on and off name whale-persona capture for this session and say Cyrene’s memory is not affected', () => {
    const service = fakeService()
    for (const [input, state] of [
      ['status', '关闭'],
      ['on', '已开启'],
      ['status', '开启'],
      ['off', '已关闭'],
    ] as const) {
      const answer = captureCommand(service, 's1', input)
      expect(answer.kind).toBe('success')
      expect(answer.text).toContain('本会话的 whale-persona 收口')
      expect(answer.text).toContain(state)
      expect(answer.text).toContain('不是昔涟的记忆')
      expect(answer.text).not.toContain('长期记忆收口')
    }
  })
  it('without a whale-persona config every answer says capture would collect nothing; with one it does not', () => {
    for (const input of ['on', 'off', 'status']) {
      expect(captureCommand(fakeService(false), 's1', input).text).toContain(
        '还没有 whale-persona 配置（/home/x/.dsh/whale-persona/config.json），所以开了也不会收集任何东西',
      )
      expect(captureCommand(fakeService(true), 's1', input).text).not.toContain('还没有 whale-persona 配置')
    }
    expect(captureCommand(fakeService(), 's1', 'bogus', '/memory capture on | off | status')).toEqual({
      kind: 'error',
      text: '用法：/memory capture on | off | status',
    })
  })
})
