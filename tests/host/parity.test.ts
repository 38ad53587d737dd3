import { describe, expect, it } from 'vitest'
import { charCount } from '../../prompt/index.ts'
import { bootHost } from '../harness/host.ts'

/**
 * Work-mode parity (CONTRACT#section-mirror): every tool/plan section the built-in
 * base preset gives its model reaches the model of the Cyrene preset built on
 * it, whole. One host per preset: DSH rc.8's tool-cordis registers a host-wide
 * provider, so `cordis` and `cyrene-work` cannot stand in one process.
 */

interface Seen {
  /** Each non-empty tool:/plan: section as the model reads it (variables filled in). */
  guidance: { name: string; text: string }[]
  system: string
  context: string
  doctor: string | undefined
}

const fill = (text: string, variables: Record<string, string | undefined>) => text.replace(/\{\{([a-z_]+)\}\}/g, (all, name: string) => variables[name] ?? all)

async function seen(preset: string, plan: boolean): Promise<Seen> {
  const host = await bootHost()
  try {
    const agent = await host.createAgent(preset)
    if (plan) expect(await host.command(agent, '/plan')).toMatchObject({ kind: 'success' })
    const { assembly, system, context } = await host.assemble(agent)
    const guidance = (assembly.sections as { name: string; text: string }[])
      .filter((s) => /^(tool|plan):/.test(s.name) && s.text.trim() !== '')
      .map((s) => ({ name: s.name, text: fill(s.text.trim(), assembly.variables) }))
    const doctor = preset.startsWith('c') && preset !== 'cordis' ? (await host.command(agent, '/cyrene doctor --verbose'))?.text : undefined
    return { guidance, system, context, doctor }
  } finally {
    await host.dispose()
  }
}

/** Characters of the base's guidance found whole in what the Cyrene preset sends, over all of it. */
function parity(base: Seen, ours: Seen): number {
  const total = base.guidance.reduce((n, s) => n + charCount(s.text), 0)
  const carried = base.guidance.filter((s) => ours.context.includes(s.text)).reduce((n, s) => n + charCount(s.text), 0)
  return carried / total
}

describe('work-mode parity: tool and plan guidance of the base reaches the Cyrene preset whole', () => {
  for (const [ours, base] of [
    ['chat', 'standard'],
    ['cyrene-work', 'cordis'],
  ] as const)
    for (const plan of [false, true])
      it(`${ours} carries all of ${base}'s guidance${plan ? ' in plan mode' : ''}: ratio 1.0`, async () => {
        const b = await seen(base, plan)
        const c = await seen(ours, plan)
        // The base really sends its guidance in its system prompt.
        for (const s of b.guidance) expect(b.system).toContain(s.text)
        expect(b.guidance.length).toBeGreaterThan(10)
        if (plan) expect(b.guidance.map((s) => s.name)).toContain('plan:policy')
        if (base === 'cordis') expect(charCount(b.guidance.find((s) => s.name === 'tool:cordis')!.text)).toBeGreaterThan(10_000)
        const missing = b.guidance.filter((s) => !c.context.includes(s.text)).map((s) => s.name)
        expect(missing).toEqual([])
        expect(parity(b, c)).toBe(1)
        // The doctor says it in one sentence: every section, every character of the base's guidance.
        const chars = b.guidance.reduce((n, s) => n + charCount(s.text), 0).toLocaleString('en-US')
        expect(c.doctor).toContain(`✓ 提示词里的段：工具说明 ${b.guidance.length} 段 / ${chars} 字，全部带上`)
        expect(c.doctor).toMatch(/\n {8}带上 tool:read：[\d,]+ 字（DSH 的工具说明，整段）/)
      }, 60_000)
})
