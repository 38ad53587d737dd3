import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chineseLeft, englishSentences } from '../../i18n/testing/language-rule.ts'
import { bootHost, type Host } from '../harness/host.ts'
import { otherLanguage } from '../harness/language.ts'

/**
 * Issue 22: the texts a command shows follow DSH's UI language, as DSH web
 * stores it (settings.yaml `locale.preference`, registered by DSH's own
 * `locale` row), read at each command, so changing it in the page counts from
 * the next command on.
 */
let host: Host
beforeAll(async () => {
  host = await bootHost({ lang: 'en' })
  await host.ctx.get('cyreneMemory').ready
})
afterAll(async () => {
  await host?.dispose()
})

const setLocale = async (preference: 'zh' | 'en') => await host.ctx.settings.update('locale', { preference })
const text = (r: { text?: string } | undefined) => r?.text ?? ''

describe("commands in DSH's UI language", () => {
  // Form and style names (小昔涟, 温润 …) are words the person types, from voice/*.md: quoted or in <…>, shown as written.
  it('English: help, doctor, nickname, style, /memory, /dream status speak English and no Chinese beyond names and paths', async () => {
    await setLocale('en')
    const agent = await host.createAgent('chat')
    const replies = {
      help: await host.command(agent, '/cyrene help'),
      doctor: await host.command(agent, '/cyrene doctor'),
      verbose: await host.command(agent, '/cyrene doctor --verbose'),
      nickname: await host.command(agent, '/cyrene nickname'),
      style: await host.command(agent, '/cyrene style'),
      memory: await host.command(agent, '/memory'),
      dream: await host.command(agent, '/cyrene dream status'),
    }
    expect(text(replies.help)).toContain('/cyrene nickname <name> — what she calls you')
    expect(text(replies.doctor).split('\n')[0]).toMatch(/^昔涟 · 新卷 \(Cyrene\) check-up: /)
    expect(text(replies.doctor)).toMatch(/\n✓ Memory: 0 entries, all well\n/)
    expect(replies.nickname).toMatchObject({ kind: 'success', text: expect.stringContaining('No name is set yet') })
    expect(replies.style).toMatchObject({ kind: 'success', text: expect.stringContaining('Her style (道韵) is') })
    expect(text(replies.memory)).toContain('Cyrene’s memory: 0 entries in the day files')
    for (const [name, reply] of Object.entries(replies))
      expect({ name, left: chineseLeft(text(reply).replace(/"[^"]*"|<[^>]*>/g, '')) }).toEqual({ name, left: '' })
  })

  it('Chinese: the same commands speak Chinese and hold no English sentence; the switch counts from the next command', async () => {
    await setLocale('zh')
    const agent = await host.createAgent('chat')
    const doctor = await host.command(agent, '/cyrene doctor')
    expect(text(doctor).split('\n')[0]).toMatch(/^昔涟 · 新卷 体检：/)
    expect(text(doctor)).toMatch(/\n✓ 记忆：0 条，一切正常\n/)
    for (const line of ['/cyrene help', '/cyrene doctor', '/cyrene nickname', '/cyrene style', '/memory', '/cyrene dream status'])
      expect({ line, found: englishSentences(text(await host.command(agent, line))) }).toEqual({ line, found: [] })
    await setLocale('en')
    expect(text(await host.command(agent, '/cyrene nickname'))).toContain('No name is set yet')
  })

  it('a question answered is a success, a refusal an error (DSH shows errors red as failed)', async () => {
    const agent = await host.createAgent('chat')
    expect((await host.command(agent, '/cyrene form'))?.kind).toBe('success')
    expect((await host.command(agent, '/cyrene restore'))?.kind).toBe('success')
    expect((await host.command(agent, '/cyrene style 没有这档'))?.kind).toBe('error')
    expect((await host.command(agent, '/cyrene nonsense'))?.kind).toBe('error')
  })
})

describe('what the lower layers report, in chat and the doctor (issue 22)', () => {
  it('a pending entry’s reasons, /cyrene sync, /cyrene backup and the doctor --verbose in one language each', async () => {
    const store = host.ctx.get('cyreneMemory').store()!
    const pending = await store.write({ text: 'likes coffee', kind: 'fact' }, { by: 'person' })
    expect(pending.gate).toBe('pending')
    for (const lang of ['zh', 'en'] as const) {
      await setLocale(lang)
      const agent = await host.createAgent('chat')
      const replies: Record<string, string> = {}
      for (const line of [`/memory show ${pending.id}`, '/cyrene sync', '/cyrene backup', '/cyrene doctor --verbose'])
        // The memory itself is the person's data, not a word of the reply.
        replies[line] = text(await host.command(agent, line)).replaceAll('likes coffee', '')
      expect(replies[`/memory show ${pending.id}`]).toContain(lang === 'zh' ? '第 2 条：五育要是' : 'rule 2: the virtue must be one of')
      for (const [line, reply] of Object.entries(replies)) expect({ lang, line, found: otherLanguage(lang, reply) }).toEqual({ lang, line, found: [] })
    }
  })
})
