import { describe, expect, it } from 'vitest'
import { captureActive, configFromText, normaliseConfig } from './config.ts'
import { locate } from './paths.ts'

describe('normaliseConfig (§2, interop notes)', () => {
  it('gives the factory defaults for anything that is not an object', () => {
    for (const raw of [undefined, null, 3, 'x', [1]]) {
      expect(normaliseConfig(raw)).toEqual(normaliseConfig({}))
    }
    expect(normaliseConfig({})).toMatchObject({
      enabled: true,
      thinkingLanguage: 'off',
      persona: {
        enabled: true,
        selfNameFlash: '我',
        selfNamePro: '我',
        userName: '用户',
        contracts: [],
        appearance: { enabled: false, text: '', byModel: {} },
      },
      memory: { enabled: false, inbox: true, capture: 'on-demand', maxEntries: 30, inboxPath: '', requireConfirm: true, sinks: {} },
      budget: { enabled: false, max: 0, warnInPrompt: true },
    })
  })
  it('reads booleans by truthiness where the reference does, and strictly where the spec asks', () => {
    const c = normaliseConfig({
      enabled: 0,
      persona: { enabled: 'yes', tone: { enabled: 'true' } },
      memory: { enabled: 1, requireConfirm: 0 },
      budget: { enabled: 1 },
    })
    expect([c.enabled, c.persona.enabled, c.persona.tone.enabled, c.memory.enabled, c.memory.requireConfirm, c.budget.enabled]).toEqual([
      false,
      true,
      false,
      true,
      true,
      true,
    ])
  })
  it('budget warning with loosely typed values: switches by truthiness, max from numeric strings (issue 14 item "budget warning")', () => {
    const budget = (b: unknown) => normaliseConfig({ budget: b }).budget
    expect(budget({ enabled: 'yes', max: '60' })).toEqual({ enabled: true, max: 60, warnInPrompt: true })
    // JS truthiness, as the reference's `!!value`: any non-empty string is on, even "no"
    for (const on of ['yes', 'no', 'false', '0', 1, -1, {}, []]) expect(budget({ enabled: on }).enabled).toBe(true)
    for (const off of ['', 0, null, false]) expect(budget({ enabled: off }).enabled).toBe(false)
    expect(budget({}).enabled).toBe(false)
    for (const off of ['', 0, null, false]) expect(budget({ warnInPrompt: off }).warnInPrompt).toBe(false)
    for (const on of [undefined, 'no', 1, true]) expect(budget({ warnInPrompt: on }).warnInPrompt).toBe(true)
    // numbers and the strings Number() reads as a finite positive number; everything else is "no limit"
    for (const [raw, max] of [
      [' 60 ', 60],
      ['6e1', 60],
      ['12.5', 12.5],
      [60, 60],
      ['60px', 0],
      ['sixty', 0],
      ['', 0],
      ['-5', 0],
      ['Infinity', 0],
      [true, 0],
      [[60], 0],
      [null, 0],
    ] as const) {
      expect(budget({ max: raw }).max).toBe(max)
    }
  })
  it('falls back for empty names, bad numbers and bad shapes', () => {
    const c = normaliseConfig({
      thinkingLanguage: 7,
      persona: { selfNameFlash: '', selfNamePro: '', userName: '', contracts: {}, selfNameByModel: [] },
      memory: { maxEntries: -2, sinks: [] },
      budget: { max: 'x' },
    })
    expect(c.thinkingLanguage).toBe('7')
    expect([c.persona.selfNameFlash, c.persona.selfNamePro, c.persona.userName]).toEqual(['我', '我', '用户'])
    expect([c.persona.contracts, c.persona.selfNameByModel, c.memory.maxEntries, c.memory.sinks, c.budget.max]).toEqual([[], {}, 30, {}, 0])
  })
  it('configFromText never throws', () => {
    for (const text of [null, '', '{', '\u0000', '{"persona": {"userName": "x"}}']) expect(() => configFromText(text)).not.toThrow()
  })
})

describe('captureActive (§3.4)', () => {
  it('needs the session switch or capture "always", plus memory and inbox on', () => {
    const on = { memory: { enabled: true } }
    expect(captureActive(normaliseConfig(on), false)).toBe(false)
    expect(captureActive(normaliseConfig(on), true)).toBe(true)
    expect(captureActive(normaliseConfig({ memory: { enabled: true, capture: 'ALWAYS ' } }), false)).toBe(true)
    expect(captureActive(normaliseConfig({ memory: { enabled: true, inbox: false } }), true)).toBe(false)
    expect(captureActive(normaliseConfig({ enabled: false, ...on }), true)).toBe(false)
  })
})

describe('locate (§2.1)', () => {
  it('uses whale-persona, the legacy whale-suite when its config is a file, and DSH_WHALE_CONFIG for the file only', () => {
    expect(locate({ DSH_HOME: 'h' }, '/home/u', () => false)).toEqual({
      dshHome: 'h',
      configDir: 'h/whale-persona',
      configFile: 'h/whale-persona/config.json',
      presetsDir: 'h/whale-persona/presets',
    })
    expect(locate({ DSH_HOME: 'h' }, '/home/u', (f) => f === 'h/whale-suite/config.json').configDir).toBe('h/whale-suite')
    expect(locate({ DSH_WHALE_CONFIG: '/c.json' }, '/home/u', () => false)).toMatchObject({ configDir: '/home/u/.dsh/whale-persona', configFile: '/c.json' })
  })
})

describe('thinkingLanguage that String() cannot convert', () => {
  it('counts as off instead of throwing', () => {
    expect(configFromText(JSON.stringify({ thinkingLanguage: [{ toString: 0 }] })).thinkingLanguage).toBe('off')
  })
})
