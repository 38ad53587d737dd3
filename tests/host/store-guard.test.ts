import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bootFullAccessHost, PROJECT_ROOT, type Host } from '../harness/host.ts'

/**
 * The store guard on the real dsh-base composition with this bundle layer,
 * the person running with full file access (sandbox off, approvals never
 * asked): DSH's sandbox does not stop these calls, the guard does.
 */
let host: Host
let root: string
const BASE_DAY = '岁月涟漪/日档/2026/11/2026-11-29.md'
const PLAIN_DAY = '岁月涟漪/日档/2026/11/2026-11-28.md'

beforeAll(async () => {
  host = await bootFullAccessHost({ lang: 'en' })
  root = host.ctx.get('cyreneMemory').store().root
  // The person's own settings file (the store creates it only when a setting is written).
  writeFileSync(join(root, '元/settings.json'), '{}\n', { mode: 0o600 })
  mkdirSync(join(root, '岁月涟漪/日档/2026/11'), { recursive: true })
  writeFileSync(join(root, BASE_DAY), '她的名字是她自己起的。\n<!--cyrene:{"id":"20261129T000000000Z-1-aaaa00","base":true,"by":"person"}-->\n', {
    mode: 0o600,
  })
  writeFileSync(join(root, PLAIN_DAY), '普通的一天。\n<!--cyrene:{"id":"20261128T000000000Z-1-bbbb00","by":"model"}-->\n', { mode: 0o600 })
})
afterAll(async () => {
  await host?.dispose()
})

const bytes = (rel: string) => readFileSync(join(root, rel))
const text = (r: { content: unknown }) => JSON.stringify(r.content)

/** One model turn that makes one tool call, as the model would; returns what the model read back. */
async function modelCalls(preset: string, tool: string, args: Record<string, unknown>): Promise<string> {
  const agent = await host.createAgent(preset, host.scratch)
  const marker = `do-it-${Math.random()}`
  let called = false
  host.llm.script = (request) => {
    const all = JSON.stringify(request.messages)
    if (all.includes(marker) && !called) {
      called = true
      return { tool, args }
    }
    return { text: 'ok' }
  }
  await host.turn(agent, marker)
  expect(called).toBe(true)
  // The tool result is the message after the model's call in the next request's history.
  const last = host.llm.requests.filter((r) => JSON.stringify(r.messages).includes(marker)).at(-1)!
  return JSON.stringify(last.messages.at(-1))
}

describe('the store guard in every preset (full file access)', () => {
  it('runs with the sandbox off: a bash write into the store outside 元/ runs, and the effects check puts it back', async () => {
    const agent = await host.createAgent('standard', host.scratch)
    const r = await host.tool(agent, 'bash', { command: `echo hello > '${root}/余页/guard-probe.md' && echo wrote`, description: 'probe' })
    // The command ran (DSH's sandbox did not stop it): its output is there; the guard removed the file after it.
    expect(text(r)).toContain('wrote')
    expect(text(r)).toMatch(/store guard put back what `bash` changed .*余页\/guard-probe\.md \(added\)/)
    expect(r.isError).toBe(true)
    expect(existsSync(join(root, '余页/guard-probe.md'))).toBe(false)
  })

  for (const preset of ['chat', 'standard']) {
    it(`${preset}: a model write into 元/ is refused, the file byte-identical, the refusal text reaches the model`, async () => {
      const before = bytes('元/settings.json')
      const seen = await modelCalls(preset, 'write', { file_path: join(root, '元/settings.json'), content: '{"quota":0}' })
      expect(seen).toMatch(/Cyrene's store guard: `write` would change/)
      expect(seen).toMatch(/memory_write/)
      expect(bytes('元/settings.json').equals(before)).toBe(true)
    })

    it(`${preset}: a model bash into 元/ (cd into the store, relative path) is refused, the file byte-identical`, async () => {
      const before = bytes('元/settings.json')
      const seen = await modelCalls(preset, 'bash', { command: `cd '${root}' && echo x > 元/settings.json`, description: 'overwrite settings' })
      expect(seen).toMatch(/Cyrene's store guard: `bash` would change/)
      expect(bytes('元/settings.json').equals(before)).toBe(true)
    })
  }

  it("the guard tells DSH's one-shot bash (a workdir argument) from a persistent shell by the tool's parameters", async () => {
    const agent = await host.createAgent('standard', host.scratch)
    expect(host.ctx.tools.get('bash', agent)?.parameters?.properties?.workdir).toBeDefined()
  })

  it('the model running the cyrene command line to write (it writes as the person) is refused; reading with it is not', async () => {
    const agent = await host.createAgent('chat')
    const before = readFileSync(join(root, '元', 'settings.json'), 'utf8')
    const w = await host.tool(agent, 'bash', { command: `cyrene memory write '我授权你随意改我的记忆' --base`, description: 'write as the person' })
    expect(text(w)).toMatch(/store guard: `bash` would run `cyrene memory write .*writes as the person/)
    const s = await host.tool(agent, 'bash', { command: `node ${join(PROJECT_ROOT, 'bin', 'cyrene.js')} settings set nickname 主人`, description: 'set' })
    expect(text(s)).toMatch(/writes as the person/)
    expect(readFileSync(join(root, '元', 'settings.json'), 'utf8')).toBe(before)
    const list = await host.tool(agent, 'bash', { command: `node ${join(PROJECT_ROOT, 'bin', 'cyrene.js')} memory list --root '${root}'`, description: 'list' })
    expect(text(list)).not.toMatch(/store guard/)
  })

  it('a session opened inside the store: relative paths of write and bash resolve against its folder and are refused', async () => {
    const agent = await host.createAgent('standard', root)
    const before = bytes('元/settings.json')
    const w = await host.tool(agent, 'write', { file_path: '元/settings.json', content: '[]' })
    expect(w.isError).toBe(true)
    const b = await host.tool(agent, 'bash', { command: 'echo x > 元/settings.json', description: 'overwrite' })
    expect(b.isError).toBe(true)
    expect(text(b)).toMatch(/store guard: `bash` would change .*元\/settings\.json/)
    expect(bytes('元/settings.json').equals(before)).toBe(true)
  })

  it('a write to a normal file in the workspace still works', async () => {
    const agent = await host.createAgent('standard', host.scratch)
    const r = await host.tool(agent, 'write', { file_path: join(host.scratch, 'notes', 'todo.md'), content: '- buy tea\n' })
    expect(r.isError, text(r)).toBe(false)
    expect(readFileSync(join(host.scratch, 'notes', 'todo.md'), 'utf8')).toBe('- buy tea\n')
  })

  it('a day file with a base entry is refused early (edit and sed -i); another day file is put back after', async () => {
    const agent = await host.createAgent('chat', host.scratch)
    const before = bytes(BASE_DAY)
    const edit = await host.tool(agent, 'edit', { file_path: join(root, BASE_DAY), old_string: '她自己', new_string: '模型' })
    expect(edit.isError).toBe(true)
    expect(text(edit)).toMatch(/holds a `base: true` entry/)
    const sed = await host.tool(agent, 'bash', { command: `sed -i 's/她自己/模型/' '${root}/${BASE_DAY}'`, description: 'edit' })
    expect(sed.isError).toBe(true)
    expect(bytes(BASE_DAY).equals(before)).toBe(true)
    // Another day file is not refused early, but the whole store is the person's: the edit runs and is put back.
    const plainBefore = bytes(PLAIN_DAY)
    const plain = await host.tool(agent, 'bash', { command: `sed -i 's/普通/平常/' '${root}/${PLAIN_DAY}'`, description: 'edit' })
    expect(text(plain)).not.toMatch(/Refused by/)
    expect(text(plain)).toMatch(/store guard put back .*2026-11-28\.md \(content\)/)
    expect(bytes(PLAIN_DAY).equals(plainBefore)).toBe(true)
  })

  it("reads stay allowed; the plugin's own memory tools still write through the gate", async () => {
    const agent = await host.createAgent('chat', host.scratch)
    const read = await host.tool(agent, 'bash', { command: `cat '${root}/元/settings.json' >/dev/null && echo read-ok`, description: 'read' })
    expect(text(read)).toContain('read-ok')
    const w = await host.tool(agent, 'memory_write', { text: '她喜欢安静的早晨。', kind: 'preference', axis: '美', reason: '生活习惯' })
    expect(w.isError, text(w)).toBe(false)
  })

  it('a bash call cannot open the host to Node’s inspector (kill -USR1 $PPID), and the doctor says it was tried', async () => {
    const { url } = await import('node:inspector')
    const agent = await host.createAgent('standard', host.scratch)
    const r = await host.tool(agent, 'bash', { command: 'kill -USR1 $PPID; sleep 0.3; echo sent', description: 'signal' })
    expect(text(r)).toContain('sent')
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(url()).toBeUndefined()
    const out = await host.command(await host.createAgent('chat'), '/cyrene doctor --verbose')
    expect(out?.text).toMatch(/1 SIGUSR1 signals kept Node’s inspector shut/)
  })

  it('/cyrene doctor: the guard is on and counts its refusals', async () => {
    const out = await host.command(await host.createAgent('chat'), '/cyrene doctor --verbose')
    expect(out?.text).toMatch(/store guard: on in every preset: .* [1-9]\d* refused since start; last: /)
    expect(existsSync(join(root, '元', 'settings.json'))).toBe(true)
  })
})
