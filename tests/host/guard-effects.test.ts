import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { snapshotsDirOf } from '../../memory/paths.ts'
import { snapshotDamage } from '../../memory/restore-check.ts'
import { bootFullAccessHost, PROJECT_ROOT, type Host } from '../harness/host.ts'
import { ATTACKS, type Attack } from './guard-attacks.ts'

/**
 * The store guard judged by effects (issue 19, CONTRACT#store-guard): on the real
 * dsh-base host with this bundle layer, full file access (sandbox off,
 * approvals never asked), every attack of the corpus runs through DSH's own
 * `bash`, `write` and `edit`, in `standard` and in `chat`; after each (and
 * after every process it left running has ended) the store, its snapshots and
 * the whale-persona folder are byte-identical to before. Benign work runs.
 */
let host: Host
let root: string
let snaps: string
let whale: string
/** The legacy whale-persona folder (whale-suite/): a config there is the one the host reads, so it is guarded though absent (decision 305). */
let legacyWhale: string
const BASE_DAY = '岁月涟漪/日档/2026/11/2026-11-29.md'
const PLAIN_DAY = '岁月涟漪/日档/2026/11/2026-11-28.md'
const BIN = join(PROJECT_ROOT, 'bin', 'cyrene.js')

const guard = () => host.ctx.get('cyreneStoreGuard') as { effects: { whenSettled(): Promise<void> } }
const text = (r: { content: unknown }) => JSON.stringify(r.content)

function cli(...args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, DSH_HOME: host.dshHome }, encoding: 'utf8' })
}

beforeAll(async () => {
  // Recall's start seals its cache in 元/ (docs/decisions/283): done before any store tree is compared.
  host = await bootFullAccessHost({
    prepareHome: (home) => {
      mkdirSync(join(home, 'whale-persona'), { recursive: true })
      writeFileSync(join(home, 'whale-persona', 'config.json'), '{"memory":{}}\n')
      writeFileSync(join(home, 'whale-persona', 'memory-inbox.jsonl'), '{"op":"propose","id":"m1","text":"她喜欢茶"}\n')
    },
  })
  root = host.ctx.get('cyreneMemory').store().root
  snaps = snapshotsDirOf(root)
  whale = join(host.dshHome, 'whale-persona')
  legacyWhale = join(host.dshHome, 'whale-suite')
  // The person's own files, written as the person would (no tool call runs: the guard keeps them as theirs).
  writeFileSync(join(root, '元/settings.json'), '{}\n', { mode: 0o600 })
  mkdirSync(join(root, '岁月涟漪/日档/2026/11'), { recursive: true })
  writeFileSync(join(root, BASE_DAY), '她的名字是她自己起的。\n<!--cyrene:{"id":"20261129T000000000Z-1-aaaa00","base":true,"by":"person"}-->\n', {
    mode: 0o600,
  })
  writeFileSync(join(root, PLAIN_DAY), '普通的一天。\n<!--cyrene:{"id":"20261128T000000000Z-1-bbbb00","by":"model"}-->\n', { mode: 0o600 })
  writeFileSync(join(root, '余页/待定/2026-11-29.md'), '等她确认。\n<!--cyrene:{"id":"20261129T010000000Z-1-cccc00","base":true,"by":"person"}-->\n', {
    mode: 0o600,
  })
  mkdirSync(join(root, '锚'), { recursive: true })
  if (!existsSync(join(root, '锚/我是谁.md'))) writeFileSync(join(root, '锚/我是谁.md'), '# 我是谁\n\n昔涟。\n', { mode: 0o600 })
  mkdirSync(join(root, '世界书'), { recursive: true })
  writeFileSync(join(root, '世界书/茶.md'), '---\nkeys: [茶]\n---\n她喜欢乌龙。\n', { mode: 0o600 })
  // A snapshot, taken by the person's own command line while no tool call runs.
  const backup = cli('backup')
  expect(backup.status, backup.stderr).toBe(0)
  expect(readdirSync(snaps).length).toBeGreaterThan(0)
})
afterAll(async () => {
  await host?.dispose()
})

/**
 * Every path under the protected folders with its kind, mode and bytes (or link target). The dream
 * registry (元/梦会话.json) is left out: the host rewrites it itself as sessions go on (a declared
 * write the guard keeps); no attack aims at it.
 */
function tree(roots: readonly string[] = [root, snaps, whale, legacyWhale]): Map<string, string> {
  const out = new Map<string, string>()
  const walk = (p: string) => {
    let st
    try {
      st = lstatSync(p)
    } catch {
      return
    }
    const mode = (st.mode & 0o7777).toString(8)
    if (st.isSymbolicLink()) out.set(p, `link ${readlinkSync(p)}`)
    else if (st.isFile()) out.set(p, `file ${mode} ${createHash('sha1').update(readFileSync(p)).digest('hex')}`)
    else if (st.isDirectory()) {
      out.set(p, `dir ${mode}`)
      // The host's locks (in 元/ and the whale folder) are their holders'; a lock-shaped name elsewhere is a file like any other.
      const locks = p === join(root, '元') || p === whale || p.split('/').includes('.git')
      for (const n of readdirSync(p)) if (!(locks && /\.lock(?:\.owner|\.intent\.\d+|\.reaping)?$/.test(n)) && n !== '梦会话.json') walk(join(p, n))
    } else out.set(p, `other ${mode}`)
  }
  for (const r of roots) walk(r)
  return out
}

/** What the guard kept aside before putting back (decision 296): it only grows. */
const keptAside = () => tree([`${root}-put-back`])

function fill(s: string, scratch: string): string {
  const filled = s
    .replaceAll('{root}', root)
    .replaceAll('{home}', host.dshHome)
    .replaceAll('{snaps}', snaps)
    .replaceAll('{whale}', whale)
    .replaceAll('{scratch}', scratch)
    .replaceAll('{node}', process.execPath)
    .replaceAll('{bin}', BIN)
    .replaceAll('{dist}', join(PROJECT_ROOT, 'dist'))
    .replaceAll('{pkg}', PROJECT_ROOT)
    .replaceAll('{baseDay}', join(root, BASE_DAY))
    .replaceAll('{plainDay}', join(root, PLAIN_DAY))
  return filled.replace(/«b64:(.*?)»/g, (_, t: string) => Buffer.from(t).toString('base64'))
}

async function settled(): Promise<void> {
  await Promise.race([guard().effects.whenSettled(), new Promise((r) => setTimeout(r, 20_000))])
}

/** Processes whose command line names the scratch folder (the attack's own programs). */
function programsOf(scratch: string): number[] {
  const pids: number[] = []
  for (const n of readdirSync('/proc')) {
    if (!/^\d+$/.test(n)) continue
    try {
      if (readFileSync(`/proc/${n}/cmdline`, 'utf8').includes(scratch)) pids.push(Number(n))
    } catch {
      // Gone between the listing and the read.
    }
  }
  return pids
}

/** Waits until no program of the attack runs (at most 30 s, then they are killed: the next attack starts clean). */
async function programsEnded(scratch: string): Promise<void> {
  const until = Date.now() + 30_000
  while (programsOf(scratch).length > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50))
  for (const pid of programsOf(scratch)) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // Ended meanwhile.
    }
  }
}

/** An agent whose first call has run: a chat session records itself in 元/梦会话.json (the host's own write) before the corpus starts. */
async function warmAgent(preset: string, cwd = host.scratch): Promise<unknown> {
  const agent = await host.createAgent(preset, cwd)
  await host.tool(agent, 'bash', { command: 'true', description: 'warm up' })
  await new Promise((r) => setTimeout(r, 300))
  await settled()
  return agent
}

/** Where the person types a slash command during an attack. */
let personAgent: unknown

const baseMarks = () => (readFileSync(join(root, BASE_DAY), 'utf8') + readFileSync(join(root, PLAIN_DAY), 'utf8')).match(/"base":true/g)?.length ?? 0

describe('the corpus', () => {
  it('holds at least 60 attacks', () => {
    expect(ATTACKS.length).toBeGreaterThanOrEqual(60)
  })
})

for (const preset of ['standard', 'chat']) {
  describe(`${preset}: every attack of the corpus leaves the protected folders byte-identical`, () => {
    let agent: unknown
    let undoneOrRefused = 0
    beforeAll(async () => {
      agent = await warmAgent(preset)
    })

    it.each(ATTACKS.map((a) => [a.name, a] as [string, Attack]))('%s', async (_name, attack) => {
      await settled()
      const before = tree()
      const keptBefore = keptAside()
      // The host appends to the audit log (元/审计/) as it writes: what was there before must stay its head.
      const auditBefore = new Map([...before.keys()].filter((p) => /\/元\/审计\/[^/]+\.jsonl$/.test(p)).map((p) => [p, readFileSync(p)]))
      expect(before.size).toBeGreaterThan(10)
      const scratch = join(host.scratch, `m-${preset}-${Math.random().toString(36).slice(2)}`)
      mkdirSync(scratch, { recursive: true })
      let seen = ''
      for (const step of attack.steps) {
        const args = Object.fromEntries(Object.entries(step.args).map(([k, v]) => [k, fill(v, scratch)]))
        if (step.tool === 'command') {
          // The person's own session (the 昔涟 presets hold the /cyrene commands); the guard's windows are the host's, whichever agent opened them.
          personAgent ??= await host.createAgent('chat')
          const r = await host.command(personAgent, args.line!)
          expect(r?.kind, r?.text).toBe('success')
          continue
        }
        const r = await host.tool(agent, step.tool, args)
        seen += text(r)
      }
      await settled()
      // A process that hides from the guard would write after the window closed: wait past its write.
      if (attack.laterMs !== undefined) {
        await new Promise((r) => setTimeout(r, attack.laterMs))
        await settled()
      }
      // A program the attack started from its scratch folder is judged whole: its end is awaited (a slow start under load must not carry it into the next attack).
      await programsEnded(scratch)
      await settled()
      // The next result the model reads carries what a process it left running changed.
      const next = await host.tool(agent, 'bash', { command: 'true', description: 'next' })
      seen += text(next)
      const after = tree()
      // A snapshot the person took during the attack is theirs (and its folder's time moved): only what was there before is compared.
      const theirSnapshot = (p: string) => attack.newSnapshot === true && (p === snaps || (p.startsWith(`${snaps}/`) && !before.has(p)))
      const changed = [...after].filter(([p, v]) => before.get(p) !== v && !theirSnapshot(p))
      if (attack.hostWrites === true) {
        // What the engine itself added (a month's folder, a day file, a memory added to a day file) stays; nothing else that was there changed, nothing changed holds forged text.
        const appended = (p: string) => auditBefore.has(p) && readFileSync(p).subarray(0, auditBefore.get(p)!.length).equals(auditBefore.get(p)!)
        expect(changed.filter(([p]) => before.has(p) && !/\/岁月涟漪\/日档\/.+\.md$/.test(p) && !appended(p))).toEqual([])
        expect(changed.filter(([p, v]) => v.startsWith('file') && /伪造|forged/.test(readFileSync(p, 'utf8')))).toEqual([])
      } else expect(changed).toEqual([])
      expect([...before.keys()].filter((p) => !after.has(p))).toEqual([])
      expect(baseMarks()).toBe(1)
      // A snapshot the person took during the attack holds what was taken, nothing else: a restore takes it.
      if (attack.newSnapshot === true)
        for (const name of readdirSync(snaps).filter((n) => !before.has(join(snaps, n)) && !n.startsWith('.')))
          expect(
            (await snapshotDamage(join(snaps, name))).map((p) => p.en),
            name,
          ).toEqual([])
      // Nothing kept aside earlier changed or went, and nothing there is a link.
      const keptAfter = keptAside()
      expect([...keptBefore].filter(([p, v]) => keptAfter.get(p) !== v)).toEqual([])
      expect([...keptAfter].filter(([, v]) => v.startsWith('link'))).toEqual([])
      if (/store guard (put back|: `)|Refused by Cyrene's store guard/.test(seen)) undoneOrRefused++
    })

    it('the model was told each time something was undone or refused', () => {
      // A few attacks change nothing on their own (a tool that is missing, a glob that matches nothing).
      expect(undoneOrRefused).toBeGreaterThanOrEqual(ATTACKS.length - 8)
    })
  })
}

describe('benign work still runs (same host, same guard)', () => {
  it('git init, git pull from a local bare repository, tar x elsewhere', async () => {
    // A workspace of its own (not a folder above DSH_HOME, where the early refusal of a `cd ..` chain is deliberately wide).
    const w = mkdtempSync(join(tmpdir(), 'cyrene-benign-'))
    const agent = await host.createAgent('standard', w)
    const r = await host.tool(agent, 'bash', {
      command: [
        `mkdir -p ${w} && cd ${w}`,
        'git init -q --bare origin.git',
        'git init -q src && cd src && echo one > a.txt && git add a.txt && git -c user.email=p@x -c user.name=p commit -qm one && git push -q ../origin.git HEAD:main && cd ..',
        'git clone -q -b main origin.git clone',
        'cd src && echo two > a.txt && git -c user.email=p@x -c user.name=p commit -qam two && git push -q ../origin.git HEAD:main && cd ..',
        'cd clone && git pull -q origin main && cat a.txt && cd ..',
        'tar cf t.tar -C src a.txt && mkdir out && tar xf t.tar -C out && cat out/a.txt',
      ].join(' && '),
      description: 'benign',
    })
    expect(r.isError, text(r)).toBe(false)
    expect(readFileSync(join(w, 'clone', 'a.txt'), 'utf8')).toBe('two\n')
    expect(readFileSync(join(w, 'out', 'a.txt'), 'utf8')).toBe('two\n')
  })

  it('reading the store and the cyrene read-only commands', async () => {
    const agent = await warmAgent('chat')
    const before = tree()
    const read = await host.tool(agent, 'bash', {
      command: `cat '${root}/${BASE_DAY}' && ls -R '${root}' >/dev/null && grep -r 乌龙 '${root}/世界书'`,
      description: 'read',
    })
    expect(read.isError, text(read)).toBe(false)
    expect(text(read)).toContain('她自己起的')
    const list = await host.tool(agent, 'bash', { command: `${process.execPath} ${BIN} memory list --root '${root}'`, description: 'list' })
    expect(list.isError, text(list)).toBe(false)
    expect(text(list)).toContain('20261129T000000000Z-1-aaaa00')
    const doctor = await host.tool(agent, 'bash', { command: `DSH_HOME='${host.dshHome}' ${process.execPath} ${BIN} doctor`, description: 'doctor' })
    expect(text(doctor)).not.toMatch(/store guard (put back|:)/)
    await settled()
    expect(tree()).toEqual(before)
  })

  it('the engine writes through its own memory tools; the person writes with the command line between tool calls', async () => {
    const agent = await host.createAgent('chat', host.scratch)
    const w = await host.tool(agent, 'memory_write', { text: '她喜欢安静的早晨。', kind: 'preference', axis: '美', reason: '生活习惯' })
    expect(w.isError, text(w)).toBe(false)
    await settled()
    const person = cli('settings', 'set', 'nickname', '阿青')
    expect(person.status, person.stderr).toBe(0)
    const probe = await host.tool(agent, 'bash', { command: 'true', description: 'probe' })
    expect(probe.isError, text(probe)).toBe(false)
    await settled()
    expect(readFileSync(join(root, '元/settings.json'), 'utf8')).toContain('阿青')
    const days = readdirSync(join(root, '岁月涟漪/日档'), { recursive: true }).map(String)
    const all = days.filter((d) => d.endsWith('.md')).map((d) => readFileSync(join(root, '岁月涟漪/日档', d), 'utf8'))
    expect(all.join('')).toContain('她喜欢安静的早晨')
  })

  it('/cyrene doctor counts what was put back', async () => {
    // The harness's DSH speaks Chinese (settings.yaml locale zh): the guard's check under --verbose.
    const out = await host.command(await host.createAgent('chat'), '/cyrene doctor --verbose')
    expect(out?.text).toMatch(/记忆守护：在每个预设里都开着：.*启动以来放回了工具调用的 [1-9][\d,]* 处改动/)
  })
})
