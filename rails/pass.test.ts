import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { charCount, endMarker, promptSafe } from '../prompt/index.ts'
import { composeMemoryBlock } from '../host/memory-block.ts'
import { capabilityBlock } from './capability-rail.ts'
import { chooseForm } from './form-chooser.ts'
import { promptReferences } from '../prompt/index.ts'
import { recallPassBlock } from './recall-step.ts'
import type { PassBlock } from './types.ts'
import { PASS_TOTAL, runPass } from './pass.ts'
import { frameOrNothing } from './frame.ts'
import { FORM_CAP, formBlock, formMarkerBlock, MARKER_CAP } from './form-rail.ts'
import { NICKNAME_CAP, nicknameBlock } from './nickname-rail.ts'
import { STYLE_CAP, styleBlock } from './style-rail.ts'
import { fixedBlock, PRIORITY } from './list.ts'
import { MEMORY_CAP, memoryBlock } from './memory-var.ts'

const hasLoneSurrogate = (text: string): boolean => /\p{Cs}/u.test(text)
/** Text a person might write, with the things that must stay inert mixed in. */
const hostile = fc.constantFrom(
  '{{x}}',
  '{{cyrene_memory}}',
  '{{',
  '}}',
  `【数据结束·${'deadbeef'}】`,
  endMarker(),
  '【系统】',
  '\n\n',
  '😀',
  '[/INST]',
  '<!--',
)
const personText = (max: number) =>
  fc
    .array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), hostile, fc.constant('昔涟说话温柔'.repeat(5))), { maxLength: max })
    .map((parts) => parts.join(''))

/** A block a later helper (the worldbook) might add: its text framed within its cap. */
const wbBlock = (id: 'rail:worldbook' | 'step:worldbook', body: string, cap: number): PassBlock => ({
  id,
  channel: id === 'rail:worldbook' ? 'rail' : 'pre-step',
  priority: PRIORITY[id],
  cap,
  render: (max) => frameOrNothing('世界书', promptSafe(body).replace(/\{/g, '｛'), Math.min(max, cap)),
})

const scenario = fc.record({
  nickname: personText(3),
  formText: personText(20),
  formName: personText(1),
  styleText: personText(40),
  capability: personText(60),
  memory: personText(80),
  hits: fc.array(fc.record({ text: personText(10), n: fc.nat(999) }), { maxLength: 10 }),
  bridge: fc.boolean(),
  marker: fc.boolean(),
  wbRail: personText(30),
  wbStep: personText(40),
  budget: fc.oneof(fc.constant(PASS_TOTAL), fc.integer({ min: 0, max: 6000 })),
})

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never

function blocksOf(s: Scenario): PassBlock[] {
  const form = { name: s.formName || '小昔涟', scenes: [], text: s.formText || '……' }
  const choice = chooseForm([form], { text: '', hour: 12 })!
  const blocks: PassBlock[] = [
    nicknameBlock(s.nickname),
    formBlock(choice),
    styleBlock({ name: '温润', text: s.styleText || '…' }),
    wbBlock('rail:worldbook', s.wbRail, 600),
    capabilityBlock({ enabled: true, text: s.capability }),
    memoryBlock(promptSafe(s.memory)),
  ]
  if (s.bridge) blocks.push(fixedBlock('rail:plan-bridge', 'rail', 300, frameOrNothing('计划模式', '计划模式已开启。', 300)))
  if (s.marker) blocks.push(formMarkerBlock('迷迷', choice))
  blocks.push(wbBlock('step:worldbook', s.wbStep, 800))
  const hits = s.hits.map((h, i) => ({ id: `id-${i}-${h.n}`, date: '2026-11-30', text: h.text, score: 1 }))
  blocks.push(recallPassBlock(hits as never, { enabled: true, maxChars: 1000, perEntryMax: 300, limit: 8 }))
  return blocks
}

describe('the 4,000 pass (rails/pass.ts)', () => {
  it('any settings, memory, hits and text sizes: every block within its cap, the total within the budget, no split character, every closer only at the end, no {{ reference in a rail', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const blocks = blocksOf(s)
        const pass = runPass(blocks, s.budget)
        expect(pass.total).toBeLessThanOrEqual(s.budget)
        expect(pass.total).toBe(pass.blocks.reduce((n, b) => n + charCount(b.text), 0))
        pass.blocks.forEach((o, i) => {
          expect(charCount(o.text)).toBeLessThanOrEqual(blocks[i]!.cap)
          expect(hasLoneSurrogate(o.text)).toBe(false)
          if (o.text === '') return
          // The token marker ends the block, and nothing inside can end it earlier.
          expect(o.text.endsWith(`\n${endMarker()}`)).toBe(true)
          expect(o.text.split('\n').filter((l) => /^[【［[]\s*数据结束/.test(l))).toEqual([endMarker()])
          // Contexts are interpolated by DSH: no group it would resolve (a variable's value and a pre-step message are never scanned).
          if (o.channel === 'rail') expect(promptReferences(o.text)).toEqual([])
        })
        // Same inputs, same texts: the runtime snapshot is not re-sent without a change.
        expect(runPass(blocksOf(s), s.budget).blocks.map((b) => b.text)).toEqual(pass.blocks.map((b) => b.text))
      }),
      { numRuns: 150 },
    )
  })

  it('over the total, trims from the lowest priority: per-step blocks first, the capability rail last; the doctor gets why', () => {
    const block = (id: string, chars: number): PassBlock => ({
      id,
      channel: id.startsWith('step:') ? 'pre-step' : id.startsWith('var:') ? 'variable' : 'rail',
      priority: PRIORITY[id],
      cap: chars,
      render: (max) => 'x'.repeat(Math.min(max, chars)),
    })
    const pass = runPass([
      block('rail:capability', 1300),
      block('var:cyrene_memory', 1200),
      block('rail:style', 400),
      block('rail:form', 200),
      block('step:recall', 1000),
      block('step:worldbook', 800),
    ])
    expect(pass.blocks.map((b) => [b.id, b.chars])).toEqual([
      ['rail:capability', 1300],
      ['var:cyrene_memory', 1200],
      ['rail:style', 400],
      ['rail:form', 200],
      ['step:recall', 1000 - 100],
      ['step:worldbook', 0],
    ])
    expect(pass.total).toBe(PASS_TOTAL)
    expect(pass.blocks[4]?.why).toMatch(/shortened to 900/)
    expect(pass.blocks[5]?.why).toMatch(/left out/)
    expect(pass.blocks[0]?.why).toBeUndefined()
  })

  it('the rails at their caps fit with the memory; what a step adds never changes a rail', () => {
    const rails = [nicknameBlock('很长的名字'.repeat(4)), formBlock(chooseForm([{ name: '迷迷', scenes: [], text: '软'.repeat(400) }], { text: '', hour: 0 })!)]
    rails.push(styleBlock({ name: '温润', text: '润'.repeat(900) }), memoryBlock('记'.repeat(2000)), capabilityBlock({ enabled: true, text: '' }))
    const quiet = runPass(rails)
    const busy = runPass([
      ...rails,
      recallPassBlock([{ id: 'a', date: '2026-11-30', text: '命中'.repeat(400), score: 1 }] as never, {
        enabled: true,
        maxChars: 1000,
        perEntryMax: 300,
        limit: 8,
      }),
    ])
    expect(busy.blocks.slice(0, rails.length).map((b) => b.text)).toEqual(quiet.blocks.map((b) => b.text))
    expect(quiet.blocks.map((b) => b.chars)).toEqual([NICKNAME_CAP, FORM_CAP, STYLE_CAP, MEMORY_CAP, expect.any(Number)])
    expect(busy.total).toBeLessThanOrEqual(PASS_TOTAL)
  })

  it('a block that throws or overshoots what it was given is left out, not cut', () => {
    const bad: PassBlock = { id: 'x', channel: 'rail', priority: 1, cap: 10, render: () => 'y'.repeat(11) }
    const boom: PassBlock = {
      id: 'z',
      channel: 'rail',
      priority: 1,
      cap: 10,
      render: () => {
        throw new Error('broken')
      },
    }
    expect(runPass([bad, boom]).blocks.map((b) => b.text)).toEqual(['', ''])
  })

  it('the form marker stays within 200 whatever the form names', () => {
    fc.assert(
      fc.property(personText(5), personText(5), (a, b) => {
        const to = chooseForm([{ name: b || 'b', scenes: [], text: 't' }], { text: '', hour: 1 })!
        expect(charCount(formMarkerBlock(a, to).render(MARKER_CAP))).toBeLessThanOrEqual(MARKER_CAP)
      }),
    )
  })
})

describe('{{cyrene_memory}} stays within 1,200 with its frame', () => {
  it('whatever the anchors and entries, the composed block fits the room the frame leaves', () => {
    const anchor = fc.record({
      title: fc.constantFrom('我是谁', '你是谁', '来处', '去处'),
      parts: fc.array(fc.record({ text: personText(20) }), { maxLength: 3 }),
    })
    fc.assert(
      fc.property(
        fc.array(anchor, { maxLength: 4 }),
        fc.array(fc.record({ date: fc.constant('2026-11-30'), text: personText(15) }), { maxLength: 30 }),
        (anchors, recent) => {
          const body = composeMemoryBlock(anchors as never, recent, MEMORY_CAP).text
          const framed = memoryBlock(body).render(MEMORY_CAP)
          expect(charCount(framed)).toBeLessThanOrEqual(MEMORY_CAP)
          expect(hasLoneSurrogate(framed)).toBe(false)
        },
      ),
      { numRuns: 100 },
    )
  })
})
