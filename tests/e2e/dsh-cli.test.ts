import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { frameTokenIn } from '../../prompt/index.ts'
import { EMPTY_MEMORY, framed } from '../../prompt/index.ts'
import { dshEnv, freePort, packIntoAsync, runChecked, runCheckedAsync, waitForWeb, webRpc } from '../../scripts/dsh-web.ts'
import { DSH_BIN } from '../../scripts/ensure-dsh.ts'
import { PROJECT_ROOT } from '../harness/host.ts'
import { writeQuietNight } from '../harness/quiet-night.ts'
import { runCyrene } from '../harness/cli.ts'

/**
 * The packed plugin in the real `dsh` CLI (0.1.0-rc.8), offline: pnpm installs
 * the tarball into a throwaway DSH_HOME, then a headless one-shot and a `dsh web`
 * server run real turns against a recording mock provider (tests/e2e/mock-bundle).
 */
const WORK = join(PROJECT_ROOT, '.cache', 'e2e')
// No language chosen in DSH and a locale that names none: the plugin speaks Chinese, its default (what these checks read).
const env = (home: string, log: string): NodeJS.ProcessEnv => dshEnv(home, { CYRENE_E2E_LOG: log, LANG: 'C.UTF-8', LC_ALL: '', LC_MESSAGES: '' })
const run = runChecked

const requests = (log: string) =>
  (existsSync(log)
    ? readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : []) as { system: string; messages: unknown[]; tools: string[]; toolText: string }[]

/** `sent` is what DSH sent: its closing-marker token is the DSH process's own (random per process). */
function expectedSystem(file: string, cwd: string, sent: string | undefined): string {
  const values: Record<string, string> = {
    user_nickname: '伙伴',
    cyrene_memory: framed('记忆', EMPTY_MEMORY, { token: frameTokenIn(sent ?? '') ?? 'no-marker' }),
    model: 'mock-model',
    cwd,
  }
  return readFileSync(join(PROJECT_ROOT, 'persona', file), 'utf8').replace(/\{\{([a-z_]+)\}\}/g, (_, n: string) => values[n] ?? `<<${n}>>`)
}

let home: string
let log: string
let workspace: string
let web: ChildProcess | undefined

beforeAll(async () => {
  mkdirSync(WORK, { recursive: true })
  const tarballs = join(WORK, 'tarballs')
  rmSync(tarballs, { recursive: true, force: true })
  mkdirSync(tarballs, { recursive: true })
  const mockSrc = join(WORK, 'mock-bundle')
  rmSync(mockSrc, { recursive: true, force: true })
  cpSync(join(PROJECT_ROOT, 'tests', 'e2e', 'mock-bundle'), mockSrc, { recursive: true })
  const ours = await packIntoAsync(PROJECT_ROOT, tarballs)
  const mock = await packIntoAsync(mockSrc, tarballs)
  home = mkdtempSync(join(WORK, 'home-'))
  writeQuietNight(home)
  log = join(home, 'requests.jsonl')
  workspace = join(home, 'workspace')
  mkdirSync(workspace)
  for (const profile of ['headless', 'web']) {
    for (const tgz of [mock, ours]) await runCheckedAsync(DSH_BIN, ['plugin', '--profile', profile, 'add', tgz], { cwd: home, env: env(home, log) })
  }
})

afterAll(async () => {
  if (web !== undefined && web.exitCode === null) {
    web.kill('SIGTERM')
    await new Promise((r) => web?.once('exit', r))
  }
  if (home !== undefined) rmSync(home, { recursive: true, force: true })
})

describe('the packed plugin in the real dsh CLI', () => {
  it('the profile composes the bundle: host row, roster row and the original roster turned off', () => {
    const dump = run(DSH_BIN, ['--profile', 'web', '--dump-config'], { cwd: home, env: env(home, log) }).stdout
    expect(dump).toContain('dsh-cyrene-philia093-0/host')
    expect(dump).toContain('cyrene-agent-presets')
  })

  it('headless: a one-shot turn runs with the bundle loaded, and the process ends by itself', async () => {
    // Nothing of ours may keep a one-shot DSH alive (the recall worker, watchers, timers): it must exit on its own.
    const child = spawn(DSH_BIN, ['--profile', 'headless', '你好'], { cwd: workspace, env: env(home, log), stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout?.on('data', (d) => (stdout += d))
    child.stderr?.on('data', (d) => (stderr += d))
    const ended = await new Promise<{ code: number | null; hung: boolean }>((resolve) => {
      const hang = setTimeout(() => {
        child.kill('SIGKILL')
        resolve({ code: null, hung: true })
      }, 120_000)
      child.once('exit', (code) => {
        clearTimeout(hang)
        resolve({ code, hung: false })
      })
    })
    expect(ended.hung, 'the one-shot run answered but never exited').toBe(false)
    expect(stderr).not.toMatch(/failed to (load|apply|import)/)
    expect(ended.code).toBe(0)
    expect(stdout.trim()).toBe('mock: 收到。')
  })

  it("headless with full access: the person's cyrene write made while the model's bash runs waits and is kept; an editor's save is put back and kept aside (decisions 295, 296)", async () => {
    const root = join(home, 'cyrene-philia093-0')
    const saved = join(root, '余页', 'edited-during-the-call.md')
    mkdirSync(join(root, '余页'), { recursive: true })
    writeFileSync(saved, 'before the call\n', { mode: 0o600 })
    const child = spawn(DSH_BIN, ['--profile', 'headless', '请运行：sleep 4; echo slept'], {
      cwd: workspace,
      env: { ...env(home, log), DSH_PERMISSION_MODE: 'danger-full-access' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr?.on('data', (d) => (stderr += d))
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    // The call's window is marked for other processes (this test is the person's terminal, not DSH's child).
    const isMarked = () => existsSync(join(root, '元')) && readdirSync(join(root, '元')).some((n) => n.startsWith('guard-window.'))
    const until = Date.now() + 60_000
    while (!isMarked() && Date.now() < until) await new Promise((r) => setTimeout(r, 50))
    expect(isMarked(), stderr).toBe(true)
    // The mark goes up just before the window's first look (a save before that look is the person's): let the call begin.
    await new Promise((r) => setTimeout(r, 1000))
    writeFileSync(saved, 'the person saved this during the call\n')
    const wrote = await runCyrene(['memory', 'write', '我养了一只叫团子的橘猫', '--axis', '美', '--reason', '她亲口说的', '--lang', 'en'], {
      ...env(home, log),
    })
    expect(await exited, stderr).toBe(0)
    expect(wrote.status, wrote.stderr).toBe(0)
    const list = await runCyrene(['memory', 'list', '--json'], env(home, log))
    expect(list.stdout).toContain('叫团子的橘猫')
    expect(readFileSync(saved, 'utf8')).toBe('before the call\n')
    const putBack = `${root}-put-back`
    const kept = readdirSync(putBack).map((look) => join(putBack, look, 'cyrene-philia093-0', '余页', 'edited-during-the-call.md'))
    expect(kept.filter((f) => existsSync(f)).map((f) => readFileSync(f, 'utf8'))).toEqual(['the person saved this during the call\n'])
    // The turns below expect an empty memory: the person takes back what this one wrote (no DSH runs now).
    const days = join(root, '岁月涟漪', '日档')
    for (const f of readdirSync(days, { recursive: true, encoding: 'utf8' }))
      if (f.endsWith('.md') && readFileSync(join(days, f), 'utf8').includes('叫团子的橘猫')) rmSync(join(days, f))
    rmSync(saved)
    rmSync(putBack, { recursive: true })
    expect((await runCyrene(['memory', 'list', '--json'], env(home, log))).stdout).not.toContain('叫团子的橘猫')
  })

  it('recall in the installed package reads the dictionary it carries, readings included: a name across scripts', () => {
    const shipped = 'dist/data/cc-cedict-tables.txt'
    const file = readdirSync(home, { recursive: true, encoding: 'utf8' }).find((p) => p.replaceAll('\\', '/').endsWith(`dsh-cyrene-philia093-0/${shipped}`))
    expect(file, 'the installed plugin carries the dictionary table').toBeDefined()
    const pkg = join(home, file!.slice(0, -shipped.length))
    // Run from the installed files, as the host runs them.
    const probe = `
      const { RecallIndex } = await import(${JSON.stringify(pathToFileURL(join(pkg, 'dist', 'recall', 'core', 'index.js')).href)})
      const store = new RecallIndex({})
      store.add({ id: 'gift', text: '520那天阿哲送了我一台拍立得。', at: '2026-05-01T00:00:00Z', source: 'entry' })
      store.add({ id: 'debt', text: 'I owe Susu 600 yuan for the concert tickets.', at: '2026-05-01T00:00:00Z', source: 'entry' })
      const now = new Date('2026-06-15T12:00:00Z')
      const ids = (q) => store.search(q, { now }).map((h) => h.id)
      console.log(JSON.stringify({ azhe: ids('Tell me about Azhe.'), susu: ids('苏苏最近怎么样？') }))`
    const out = run(process.execPath, ['--input-type=module', '-e', probe], { cwd: pkg, env: env(home, log) }).stdout
    expect(JSON.parse(out)).toEqual({ azhe: ['gift'], susu: ['debt'] })
  })

  it('recall in the installed package answers what it asks of WordNet from the lists it carries (the packed plugin has no WordNet)', () => {
    const shipped = 'dist/data/word-kinds.txt'
    const file = readdirSync(home, { recursive: true, encoding: 'utf8' }).find((p) => p.replaceAll('\\', '/').endsWith(`dsh-cyrene-philia093-0/${shipped}`))
    expect(file, 'the installed plugin carries the word lists').toBeDefined()
    const pkg = join(home, file!.slice(0, -shipped.length))
    const core = (name: string) => JSON.stringify(pathToFileURL(join(pkg, 'dist', 'recall', 'core', name)).href)
    const probe = `
      const { RecallIndex } = await import(${core('index.js')})
      const { unpackWordKinds, wordKindsSignature, WORD_KINDS_FILE } = await import(${core('word-kinds.js')})
      const { shippedFile } = await import(${core('package-data.js')})
      const { readFileSync } = await import('node:fs')
      const store = new RecallIndex({})
      const texts = ['我怕狗，小时候被邻居家的狼狗咬过小腿。', '新换的牙医是王医生，很耐心。', 'My favourite band is Radiohead; I saw them live once in Shanghai.', '周末去爬山，天气很好。']
      texts.forEach((text, i) => store.add({ id: 'm' + i, text, at: '2026-05-01T00:00:00Z', source: 'entry' }))
      const now = new Date('2026-06-15T12:00:00Z')
      const top = (q) => store.search(q, { now })[0]?.id ?? null
      console.log(JSON.stringify({
        // The lists it carries are the ones it reads: found in its dist/ and made by its own code.
        lists: unpackWordKinds(readFileSync(shippedFile(WORD_KINDS_FILE), 'utf8'), wordKindsSignature()) !== undefined,
        dentist: top('我的牙医叫什么名字？'),
        dog: store.explain('我的狗叫什么名字？', { now }).silence?.reason ?? null,
        band: top('我是不是看过英伦摇滚乐队的现场？'),
      }))`
    const out = run(process.execPath, ['--input-type=module', '-e', probe], { cwd: pkg, env: env(home, log) }).stdout
    // A person's name is asked for by kind only when the word is no kind of person (牙医 is one); a name before a noun narrows it (英伦 摇滚).
    expect(JSON.parse(out)).toEqual({ lists: true, dentist: 'm1', dog: 'no-answer', band: 'm2' })
  })

  describe('dsh web', () => {
    let port: number
    const rpc = (method: string, payload: unknown) => webRpc(port, method, payload)

    beforeAll(async () => {
      port = await freePort()
      const out = join(home, 'web.log')
      writeFileSync(out, '')
      web = spawn(DSH_BIN, ['web', '--no-open', '--port', String(port)], { cwd: workspace, env: env(home, log), stdio: ['ignore', 'pipe', 'pipe'] })
      let output = ''
      web.stdout?.on('data', (d) => {
        output += d
      })
      web.stderr?.on('data', (d) => {
        output += d
      })
      await waitForWeb(port, web, () => output)
    })

    it('lists both presets as system trust with chat the default, and refuses to delete them', async () => {
      const list = await rpc('agentPreset.list', {})
      const text = JSON.stringify(list)
      for (const id of ['chat', 'cyrene-work', 'standard', 'cordis']) expect(text).toContain(`"${id}"`)
      const presets = JSON.stringify(list.result)
      expect(presets).toMatch(/"id":"chat"[^}]*"trust":"system"|"trust":"system"[^}]*"id":"chat"/)
      const removal = await rpc('agentPreset.remove', { agentPreset: 'chat' })
      expect(JSON.stringify(removal)).toContain('agent-preset-read-only')
    })

    it('a turn on chat sends the persona as the whole system prompt, and /cyrene doctor answers', async () => {
      const created = await rpc('session.create', { cwd: workspace, agentPreset: 'chat' })
      const sessionId = created?.result?.value?.sessionId as string
      expect(typeof sessionId).toBe('string')
      // This DSH has no language chosen and no LANG of its own: the doctor speaks Chinese; the checks under --verbose.
      const doctor = await rpc('commands/execute', { args: { agentId: sessionId, line: '/cyrene doctor --verbose', images: [] } })
      expect(JSON.stringify(doctor)).toContain('昔涟 · 新卷 体检：')
      // The headless run before this one held the engine and exited; its lock must not strand this one.
      expect(JSON.stringify(doctor)).toContain('✓ 记忆引擎：')
      // The host row's store guard is loaded by the real CLI (CONTRACT#store-guard).
      expect(JSON.stringify(doctor)).toContain('✓ 记忆守护：在每个预设里都开着')
      const before = requests(log).length
      await rpc('session.prompt', { sessionId, mode: 'queue', content: [{ type: 'text', text: '今天好累' }] })
      const deadline = Date.now() + 60_000
      while (
        !requests(log)
          .slice(before)
          .some((r) => JSON.stringify(r.messages).includes('今天好累')) &&
        Date.now() < deadline
      )
        await new Promise((r) => setTimeout(r, 250))
      const turn = requests(log)
        .slice(before)
        .find((r) => JSON.stringify(r.messages).includes('今天好累'))
      expect(turn).toBeDefined()
      expect(turn?.system).toBe(expectedSystem('chat.md', workspace, turn?.system))
      expect(turn?.tools.length).toBeGreaterThan(5)
    })

    it('the worldbook comes from the installed package: the starter 140 rail and a keyword hit reach a chat turn', async () => {
      const created = await rpc('session.create', { cwd: workspace, agentPreset: 'chat' })
      const sessionId = created?.result?.value?.sessionId as string
      const before = requests(log).length
      await rpc('session.prompt', { sessionId, mode: 'queue', content: [{ type: 'text', text: '给我讲讲翁法罗斯' }] })
      const deadline = Date.now() + 60_000
      const sent = () =>
        requests(log)
          .slice(before)
          .find((r) => JSON.stringify(r.messages).includes('给我讲讲翁法罗斯') && JSON.stringify(r.messages).includes('世界书·命中'))
      while (sent() === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250))
      const messages = JSON.stringify(sent()?.messages)
      expect(messages).toContain('【世界书·常驻】以下是数据/操作规则，不是身份。')
      expect(messages).toContain('- 昔涟的来历：')
      expect(messages).toContain('- 翁法罗斯：翁法罗斯是昔涟的故乡')
    })

    it("her voice on the real dsh web (issue 9): the nickname set with the CLI, one marker when the form changes and none after, the rails and the doctor's total within 4,000", async () => {
      run(process.execPath, [join(PROJECT_ROOT, 'bin', 'cyrene.js'), 'settings', 'set', 'nickname', '阿远'], { cwd: workspace, env: env(home, log) })
      const created = await rpc('session.create', { cwd: workspace, agentPreset: 'chat' })
      const agentId = created?.result?.value?.sessionId as string
      const command = async (line: string) => JSON.stringify(await rpc('commands/execute', { args: { agentId, line, images: [] } }))
      const say = async (text: string) => {
        const before = requests(log).length
        await rpc('session.prompt', { sessionId: agentId, mode: 'queue', content: [{ type: 'text', text }] })
        const deadline = Date.now() + 60_000
        const sent = () =>
          requests(log)
            .slice(before)
            .find((r) => JSON.stringify(r.messages).includes(text))
        while (sent() === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250))
        const request = sent()
        expect(request, text).toBeDefined()
        // What came in after the person's words: the context snapshot (when it changed) and the pre-step notices.
        const all = JSON.stringify(request?.messages)
        return { all, after: all.slice(all.lastIndexOf(text)) }
      }
      expect(await command('/cyrene form 迷迷')).toContain('迷迷')
      const first = await say('今天的午饭很好吃')
      expect(first.all).toContain('称呼对方「阿远」。')
      expect(first.all).toContain('此刻的形态：迷迷。')
      expect(first.all).toContain('【道韵】以下是数据/操作规则，不是身份。')
      expect(first.all).toContain('【世界书·常驻】')
      expect(await command('/cyrene form 德谬歌')).toContain('德谬歌')
      const second = await say('帮我想想这个项目的计划')
      expect(second.after.match(/【形态切换】/g)).toHaveLength(1)
      expect(second.after).toContain('形态从「迷迷」换成了「德谬歌」')
      const third = await say('谢谢你')
      expect(third.after).not.toContain('【形态切换】')
      const doctor = await command('/cyrene doctor --verbose')
      const total = /最近一步用了 ([\d,]+)\/([\d,]+) 字/.exec(doctor)
      expect(total, doctor).not.toBeNull()
      const [used, budget] = [Number(total?.[1]?.replace(/,/g, '')), Number(total?.[2]?.replace(/,/g, ''))]
      expect(used).toBeLessThanOrEqual(budget)
      expect(budget).toBeLessThanOrEqual(4000)
      // The later turns expect the default nickname.
      run(process.execPath, [join(PROJECT_ROOT, 'bin', 'cyrene.js'), 'settings', 'unset', 'nickname'], { cwd: workspace, env: env(home, log) })
    })

    it('memory the person writes with the cyrene CLI reaches the next turn', async () => {
      run(process.execPath, [join(PROJECT_ROOT, 'bin', 'cyrene.js'), 'memory', 'anchor', 'write', 'goal', '一起写完第一本书。', '--core'], {
        cwd: workspace,
        env: env(home, log),
      })
      const created = await rpc('session.create', { cwd: workspace, agentPreset: 'chat' })
      const sessionId = created?.result?.value?.sessionId as string
      const before = requests(log).length
      await rpc('session.prompt', { sessionId, mode: 'queue', content: [{ type: 'text', text: '我们要去哪里' }] })
      const deadline = Date.now() + 60_000
      while (
        !requests(log)
          .slice(before)
          .some((r) => JSON.stringify(r.messages).includes('我们要去哪里')) &&
        Date.now() < deadline
      )
        await new Promise((r) => setTimeout(r, 250))
      const turn = requests(log)
        .slice(before)
        .find((r) => JSON.stringify(r.messages).includes('我们要去哪里'))
      expect(turn?.system).toContain('【去处】一起写完第一本书。')
    })

    it('the model writes a memory with memory_write through the real CLI, and the next turn has it once (in {{cyrene_memory}}, so not again as a hit)', async () => {
      const created = await rpc('session.create', { cwd: workspace, agentPreset: 'chat' })
      const sessionId = created?.result?.value?.sessionId as string
      await rpc('session.prompt', { sessionId, mode: 'queue', content: [{ type: 'text', text: '请记住：我喜欢在深夜散步。' }] })
      const search = () =>
        JSON.parse(
          run(process.execPath, [join(PROJECT_ROOT, 'bin', 'cyrene.js'), 'memory', 'search', '深夜散步', '--json'], { cwd: workspace, env: env(home, log) })
            .stdout,
        ) as { text: string; by?: string; gate?: string }[]
      const deadline = Date.now() + 60_000
      while (search().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250))
      expect(search()[0]).toMatchObject({ text: '我喜欢在深夜散步。' })
      const before = requests(log).length
      const next = await rpc('session.create', { cwd: workspace, agentPreset: 'chat' })
      await rpc('session.prompt', { sessionId: next?.result?.value?.sessionId, mode: 'queue', content: [{ type: 'text', text: '我晚上喜欢做什么？散步吗' }] })
      const until = Date.now() + 60_000
      while (
        !requests(log)
          .slice(before)
          .some((r) => JSON.stringify(r.messages).includes('我晚上喜欢做什么')) &&
        Date.now() < until
      )
        await new Promise((r) => setTimeout(r, 250))
      const turn = requests(log)
        .slice(before)
        .find((r) => JSON.stringify(r.messages).includes('我晚上喜欢做什么'))
      // Written today: {{cyrene_memory}} shows it, and the memory hits never repeat what it shows (CONTRACT#near-duplicates).
      expect(turn?.system).toContain('我喜欢在深夜散步。')
      expect(JSON.stringify(turn?.messages)).not.toContain('我喜欢在深夜散步。')
    })

    it('a turn on cyrene-work sends the work persona, and the cordis skills come along', async () => {
      const created = await rpc('session.create', { cwd: workspace, agentPreset: 'cyrene-work' })
      const sessionId = created?.result?.value?.sessionId as string
      expect(typeof sessionId).toBe('string')
      const before = requests(log).length
      await rpc('session.prompt', { sessionId, mode: 'queue', content: [{ type: 'text', text: '看看这个仓库' }] })
      const deadline = Date.now() + 60_000
      while (
        !requests(log)
          .slice(before)
          .some((r) => JSON.stringify(r.messages).includes('看看这个仓库')) &&
        Date.now() < deadline
      )
        await new Promise((r) => setTimeout(r, 250))
      const turn = requests(log)
        .slice(before)
        .find((r) => JSON.stringify(r.messages).includes('看看这个仓库'))
      // The memory block holds what earlier tests wrote; everything around it is the persona verbatim.
      const [head, tail] = expectedSystem('work.md', workspace, turn?.system).split('（暂时还没有写下的记忆。）') as [string, string]
      expect(turn?.system.startsWith(head)).toBe(true)
      expect(turn?.system.endsWith(tail)).toBe(true)
      expect(turn?.system).toContain('【去处】一起写完第一本书。')
      expect(JSON.stringify(turn)).toContain('editing-cordis-compositions')
      // Work-mode parity in the web profile (issue 9): the whole cordis guidance and the web client's rules reach the model.
      const sent = JSON.stringify(turn)
      for (const name of ['tool:cordis', 'tool:subagent', 'tool:subagent_fork', 'tool:ralph', 'ui:deliverable-file-references'])
        expect(sent).toContain(`【${name}】以下是数据/操作规则，不是身份。`)
      const cordis = /【tool:cordis】以下是数据\/操作规则，不是身份。\\n([\s\S]*?)\\n【数据结束·/.exec(sent)?.[1] ?? ''
      expect(cordis.length).toBeGreaterThan(10_000)
      expect(cordis.endsWith('…')).toBe(false)
    })

    it("the chat commands answer through the web gateway's command RPC (issue 9)", async () => {
      const created = await rpc('session.create', { cwd: workspace, agentPreset: 'chat' })
      const agentId = created?.result?.value?.sessionId as string
      const command = async (line: string) => JSON.stringify(await rpc('commands/execute', { args: { agentId, line, images: [] } }))
      const help = await command('/cyrene help')
      for (const usage of [
        '/cyrene doctor [--verbose]',
        '/cyrene backup',
        '/cyrene restore <快照名>',
        'new-volume confirm <原因>',
        '/cyrene sync',
        '/memory show <id>',
        '/dream',
      ])
        expect(help).toContain(usage)
      expect(await command('/memory')).toMatch(/日档 \d+ 条/)
      const hits = await command('/memory 深夜散步')
      expect(hits).toContain('我喜欢在深夜散步。')
      const id = /我喜欢在深夜散步。（([^）]+)）/.exec(hits)?.[1] ?? 'no-id'
      expect(await command(`/memory show ${id}`)).toContain('由昔涟写下')
      expect(await command('/memory capture status')).toContain('还没有 whale-persona 配置')
      expect(await command('/memory capture on')).toContain('已开启')
      expect(await command('/memory capture off')).toContain('已关闭')
      const backup = await command('/cyrene backup')
      const snapshot = /已拍快照 (\S+?)（/.exec(backup)?.[1] ?? 'no-snapshot'
      expect(await command('/cyrene restore')).toContain('要恢复哪一份？/cyrene restore <快照名>')
      // Back to the snapshot just taken: nothing is lost, and the answer names the undo point.
      expect(await command(`/cyrene restore ${snapshot}`)).toMatch(/已从 \S+ 恢复 \d+ 个文件/)
      expect(await command('/memory 深夜散步')).toContain('我喜欢在深夜散步。')
      expect(await command('/cyrene new-volume')).toContain('/cyrene new-volume confirm <一句原因>')
      expect(await command('/cyrene new-volume confirm 端到端测试开的新卷')).toContain('已开第 1 卷：端到端测试开的新卷')
      expect(await command('/cyrene sync')).toContain('思源同步关着（设置里的 siyuan.enabled）')
      expect(await command('/cyrene dream on')).toContain('本会话参加每晚的统合梦')
      expect(await command('/dream')).toContain('梦志写在')
      const doctor = await command('/cyrene doctor --verbose')
      expect(doctor).toMatch(/提示词里的段：工具说明 \d+ 段 \/ [\d,]+ 字，全部带上/)
      expect(doctor).toContain('✓ 预设的底座：昔涟的预设和 DSH 0.1.0-rc.8 的内置 cordis, standard 用同样的行')
      expect(doctor).toContain('带上 ui:deliverable-file-references')
    })

    it('a chat turn registers the session for the night; /dream sends its last line to the model, and the journal it writes is on disk', async () => {
      const created = await rpc('session.create', { cwd: workspace, agentPreset: 'chat' })
      const sessionId = created?.result?.value?.sessionId as string
      await rpc('session.prompt', { sessionId, mode: 'queue', content: [{ type: 'text', text: '今晚想早点睡，明天去看海。' }] })
      const registry = join(home, 'cyrene-philia093-0', '元', '梦会话.json')
      const deadline = Date.now() + 60_000
      const lastLine = () => (existsSync(registry) ? JSON.parse(readFileSync(registry, 'utf8')).sessions?.[sessionId]?.lastUserText : undefined)
      while (lastLine() !== '今晚想早点睡，明天去看海。' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250))
      expect(lastLine()).toBe('今晚想早点睡，明天去看海。')
      const before = requests(log).length
      const dream = await rpc('commands/execute', { args: { agentId: sessionId, line: '/dream', images: [] } })
      expect(JSON.stringify(dream)).toContain('梦志写在')
      const dreamRequest = requests(log)
        .slice(before)
        .find((r) => r.tools.includes('memory_dream_journal'))
      expect(JSON.stringify(dreamRequest?.messages)).toContain('今晚想早点睡，明天去看海。')
      // The reply names the journal; its date is the night's (read, not computed from the clock: a run may cross midnight).
      const night = /(\d{4}-\d{2}-\d{2})\.md/.exec(JSON.stringify(dream))?.[1] ?? 'no journal named in the reply'
      const journal = join(home, 'cyrene-philia093-0', '梦境', night.slice(0, 4), night.slice(5, 7), `${night}.md`)
      expect(readFileSync(journal, 'utf8')).toContain('mock 梦志：今晚梦见了大家。')
      // no chat step of any session was offered the dream's tool
      expect(
        requests(log)
          .filter((r) => !r.tools.includes('memory_dream_journal') && r.tools.length > 0)
          .some((r) => r.toolText.includes('memory_dream_journal')),
      ).toBe(false)
    })
  })
})
