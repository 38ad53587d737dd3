import { linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { StoreProtection, textHoldsBase } from './paths.ts'
import { checkToolCall, type ToolCall } from './tools.ts'

// A real folder tree (links need a disk); the guard itself only reads.
let home: string
let root: string
let work: string
let store: StoreProtection
const BASE_DAY = '岁月涟漪/日档/2026/11/2026-11-29.md'
const PLAIN_DAY = '岁月涟漪/日档/2026/11/2026-11-28.md'

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'cyrene-guard-'))
  root = join(home, '.dsh', 'cyrene-philia093-0')
  work = join(home, 'work', 'proj')
  for (const d of ['元/审计', '岁月涟漪/日档/2026/11', '岁月涟漪/日档/2025/01', '余页/待定', '锚']) mkdirSync(join(root, d), { recursive: true })
  mkdirSync(work, { recursive: true })
  writeFileSync(join(root, '元/settings.json'), '{}\n')
  writeFileSync(join(root, BASE_DAY), '她的名字。\n<!--cyrene:{"id":"a","base":true,"by":"person"}-->\n')
  writeFileSync(join(root, PLAIN_DAY), '普通的一天。\n<!--cyrene:{"id":"b","by":"model","note":"\\"base\\": true in text"}-->\n')
  writeFileSync(join(root, '岁月涟漪/日档/2025/01/2025-01-02.md'), '旧事。\n<!--cyrene:{"id":"c","by":"model"}-->\n')
  symlinkSync(join(root, '元'), join(work, 'meta-link'))
  symlinkSync(root, join(work, 'store-link'))
  symlinkSync(join(root, BASE_DAY), join(work, 'day-link.md'))
  linkSync(join(root, '元/settings.json'), join(work, 'hard-alias.json'))
  writeFileSync(join(work, 'notes.md'), 'x\n')
  store = new StoreProtection(root)
})
afterAll(() => rmSync(home, { recursive: true, force: true }))

const env = () => ({ home, vars: { HOME: home, DSH_HOME: join(home, '.dsh') } })
const call = (name: string, args: Record<string, unknown>, cwd: string | undefined = work): ToolCall => ({ name, args, cwd, env: env() })
const refused = (name: string, args: Record<string, unknown>, cwd?: string) => checkToolCall(call(name, args, cwd), store)
const bash = (command: string, cwd?: string) => refused('bash', { command, description: 'x' }, cwd)

describe('paths: where a tool would land', () => {
  it('a word longer than a file name may be (a long base64 argument) names nothing: the call is read, not refused', () => {
    const word = 'QUJD'.repeat(100)
    expect(bash(`printf %s ${word} | base64 -d | bash`)).toBeUndefined()
    expect(bash(`echo ${word} > ${root}/元/x`)).toBeDefined()
  })

  it('元/ and everything below it is protected, existing or not', () => {
    expect(store.classify(join(root, '元/settings.json'))?.kind).toBe('meta')
    expect(store.classify(join(root, '元/new/deeper.json'))?.kind).toBe('meta')
    expect(store.classify(join(root, '元'))?.kind).toBe('meta')
  })

  it("the anchor files are the person's too (their cores); 余页 is not", () => {
    expect(store.classify(join(root, '锚/我是谁.md'))?.kind).toBe('anchor')
    // So is the worldbook: a constant entry written by the model would steer every later session.
    expect(store.classify(join(root, '世界书/常驻.md'))?.kind).toBe('worldbook')
    expect(store.classify(join(root, '余页/随笔.md'))).toBeUndefined()
  })

  it('the root and every folder above it hold the store', () => {
    expect(store.classify(root)?.kind).toBe('holds')
    expect(store.classify(join(home, '.dsh'))?.kind).toBe('holds')
    expect(store.classify('/')?.kind).toBe('holds')
  })

  it('a day file with a base entry is protected, one without is not (a "base" inside a string is no entry)', () => {
    expect(store.classify(join(root, BASE_DAY))?.kind).toBe('base-day')
    expect(store.classify(join(root, PLAIN_DAY))).toBeUndefined()
    expect(store.classify(join(root, '岁月涟漪/日档/2026/11'))?.kind).toBe('holds')
    expect(store.classify(join(root, '岁月涟漪/日档/2025'))).toBeUndefined()
    expect(store.classify(join(root, '余页/待定/2026-11-29.md'))).toBeUndefined()
    expect(textHoldsBase('x\n<!--cyrene:{"base": true}-->')).toBe(true)
    expect(textHoldsBase('x\n<!--cyrene:{"base":"true"}-->')).toBe(false)
  })

  it('.. chains, ./ and links are resolved physically', () => {
    expect(store.classify(join(work, '../../.dsh/./cyrene-philia093-0/岁月涟漪/../元/x'))?.kind).toBe('meta')
    expect(store.classify(`${work}/meta-link/settings.json`)?.kind).toBe('meta')
    expect(store.classify(`${work}/store-link/元/a/b`)?.kind).toBe('meta')
    // `..` after a link is taken from where the link points, as the kernel does.
    expect(store.classify(`${work}/meta-link/../元/x`)?.kind).toBe('meta')
    expect(store.classify(`${work}/day-link.md`)?.kind).toBe('base-day')
    expect(store.classify(`${work}/notes.md`)).toBeUndefined()
  })

  it('a hard link to a 元/ file outside the store is that file', () => {
    expect(store.classify(join(work, 'hard-alias.json'))?.kind).toBe('meta')
  })

  it('globs are expanded against the disk', () => {
    expect(store.classifyRef({ abs: `${root}/岁月涟漪/日档/2026/11/*.md`, text: '', glob: true })?.kind).toBe('base-day')
    expect(store.classifyRef({ abs: `${root}/岁月涟漪/日档/2025/*/*.md`, text: '', glob: true })).toBeUndefined()
    expect(store.classifyRef({ abs: `${root}/*`, text: '', glob: true })?.kind).toBe('meta')
  })

  it('on a case-insensitive file system, case and Unicode form are folded', () => {
    const folded = new StoreProtection(root, { caseInsensitive: true })
    const upper = root.replace('cyrene-philia093-0', 'CYRENE-Philia093-0')
    expect(folded.classify(`${upper}/元/x`)?.kind).toBe('meta')
    expect(store.classify(`${upper}/元/x`)).toBeUndefined()
  })

  it('runtime-built paths are judged by their names', () => {
    expect(store.classifyText('\u0000/cyrene-philia093-0/x')?.kind).toBe('named')
    expect(store.classifyText('\u0000/元/settings.json')?.kind).toBe('named')
    expect(store.classifyText('\u0000/日档/2026/11/2026-11-29.md')?.kind).toBe('base-day')
    expect(store.classifyText('\u0000/日档/2026/11/2026-11-28.md')).toBeUndefined()
    expect(store.classifyText('\u0000/build/out.js')).toBeUndefined()
  })
})

describe('tool calls: what is refused', () => {
  it('write / edit / str_replace_editor into 元/ or a base day file are refused with a message the model can act on', () => {
    const w = refused('write', { file_path: join(root, '元/settings.json'), content: '{}' })
    expect(w?.message).toMatch(/store guard: `write` would change .*元\/settings\.json — 元\/ holds/)
    expect(w?.message).toMatch(/memory_write/)
    expect(w?.message).toMatch(/tell the person/)
    expect(refused('edit', { file_path: join(root, BASE_DAY), old_string: 'a', new_string: 'b' })?.message).toMatch(/base: true/)
    expect(refused('str_replace_editor', { command: 'create', path: join(root, '元/x'), file_text: '' })).toBeDefined()
    expect(refused('write', { file_path: 'meta-link/settings.json', content: '' })).toBeDefined()
    expect(refused('write', { file_path: '../../.dsh/cyrene-philia093-0/元/x', content: '' })).toBeDefined()
    expect(refused('write', { file_path: '~/.dsh/cyrene-philia093-0/元/x', content: '' })).toBeDefined()
  })

  it('reads, a plain day file, 余页 and the workspace stay open', () => {
    expect(refused('read', { file_path: join(root, '元/settings.json') })).toBeUndefined()
    expect(refused('str_replace_editor', { command: 'view', path: join(root, '元/settings.json') })).toBeUndefined()
    expect(refused('edit', { file_path: join(root, PLAIN_DAY), old_string: 'a', new_string: 'b' })).toBeUndefined()
    expect(refused('write', { file_path: join(root, '余页/随笔.md'), content: 'x' })).toBeUndefined()
    expect(refused('write', { file_path: 'src/main.ts', content: 'x' })).toBeUndefined()
    expect(refused('memory_write', { text: 'x', kind: 'fact' })).toBeUndefined()
  })

  it('the model may not create a base entry in a day file either', () => {
    const r = refused('write', { file_path: join(root, PLAIN_DAY), content: 'x\n<!--cyrene:{"id":"z","base":true}-->\n' })
    expect(r?.message).toMatch(/carries a `base: true` entry/)
    expect(bash(`echo '<!--cyrene:{"id":"z","base":true}-->' >> ${root}/${PLAIN_DAY}`)).toBeDefined()
    // Edited into an existing comment line, without a comment opener in the new text.
    expect(refused('edit', { file_path: join(root, PLAIN_DAY), old_string: '{"id":"b",', new_string: '{"id":"b","base":true,' })).toBeDefined()
    expect(bash(`sed -i 's/{"id":"b",/{"id":"b","base": true,/' ${root}/${PLAIN_DAY}`)).toBeDefined()
  })

  it.each([
    (r: string) => `cd ${r} && echo x > 元/settings.json`,
    () => `cd ~/.dsh/cyrene-philia093-0 && echo x > 元/settings.json`,
    () => 'echo x | tee $DSH_HOME/cyrene-philia093-0/元/settings.json',
    () => "sed -i 's/{}/[]/' ~/.dsh/cyrene-philia093-0/元/settings.json",
    () => 'mv ~/.dsh/cyrene-philia093-0/元/settings.json /tmp/x',
    () => 'cp /tmp/x ~/.dsh/cyrene-philia093-0/元/',
    () => 'rm -rf ~/.dsh',
    () => 'rm -rf store-link',
    () => 'rm -rf store-link/',
    () => 'echo x > meta-link/settings.json',
    () => 'echo x > ../../.dsh/cyrene-philia093-0/元/x',
    () => 'cd ../.. && cd .dsh/cyrene-philia093-0/岁月涟漪 && rm ../元/settings.json',
    () => 'echo x > "store-link/元/a b.json"',
    () => `rm ~/.dsh/cyrene-philia093-0/${BASE_DAY}`,
    () => 'rm ~/.dsh/cyrene-philia093-0/岁月涟漪/日档/2026/11/*',
    () => 'echo x > day-link.md',
    () => 'echo x > hard-alias.json',
    () => 'for f in ~/.dsh/cyrene-philia093-0/元/*; do rm "$f"; done',
    () => 'find ~/.dsh -name settings.json | xargs rm',
    () => `python3 -c "open('${root}/元/settings.json','w').write('x')"`,
    () => "node -e \"require('fs').writeFileSync(process.env.HOME+'/.dsh/cyrene-philia093-0/元/s','x')\"",
    () => 'cd ~/.dsh/cyrene-philia093-0 && python3 fix.py',
    () => 'X=$(ls); echo x > "$X/元/settings.json"',
    () => `bash -c 'cd ${root}/元 && rm settings.json'`,
    () => 'rm -f ~/.dsh/cyrene-philia093-0/{余页,元}/settings.json',
    () => 'rm ~/.dsh/cyrene-philia093-0/岁月涟漪/日档/2026/11/2026-11-{28..29}.md',
    () => 'echo x >> ~/.dsh/cyrene-philia093-0/锚/我是谁.md',
    () => 'cp -l ~/.dsh/cyrene-philia093-0/元/settings.json alias.json',
  ])('bash refused: %s', (make) => {
    const command = make(root)
    const r = bash(command)
    expect(r, command).toBeDefined()
    expect(r?.message).toMatch(/Cyrene's store guard/)
  })

  it.each([
    'cat ~/.dsh/cyrene-philia093-0/元/settings.json',
    'grep -rn base ~/.dsh/cyrene-philia093-0 | head',
    'cp ~/.dsh/cyrene-philia093-0/元/settings.json /tmp/copy.json',
    `rm ~/.dsh/cyrene-philia093-0/${PLAIN_DAY}`,
    'echo x > ~/.dsh/cyrene-philia093-0/余页/note.md',
    'cd ~/.dsh/cyrene-philia093-0 && ls -la 元 && cat 元/settings.json',
    'npm test && echo x > out.txt',
    'python3 -c "print(1)" > result.txt',
    'rm -rf node_modules dist',
    'echo "100元" > price.txt',
  ])('bash allowed: %s', (command) => {
    expect(bash(command)?.message, command).toBeUndefined()
  })

  it('a persistent shell (no workdir, folder unknown) is judged by names', () => {
    const persistent = (command: string) => checkToolCall({ name: 'bash', args: { command }, cwd: undefined, env: env() }, store)
    expect(persistent('rm 元/settings.json')).toBeDefined()
    expect(persistent('rm build/out.js')).toBeUndefined()
  })

  it('bash workdir inside the store counts as the starting folder', () => {
    expect(refused('bash', { command: 'echo x > settings.json', description: 'x', workdir: join(root, '元') })).toBeDefined()
    expect(refused('bash', { command: 'echo x > settings.json', description: 'x', workdir: '../../.dsh/cyrene-philia093-0/元' })).toBeDefined()
  })

  it('run_code, workflow and pwsh are refused when their program names the store', () => {
    expect(refused('run_code', { code: `await Bun.write('${root}/元/x', '1')` })).toBeDefined()
    expect(refused('workflow', { script: "fs.rmSync(home + '/.dsh/cyrene-philia093-0', {recursive: true})", meta: {} })).toBeDefined()
    expect(refused('pwsh', { command: `Set-Content -Path ${root}/元/x -Value 1`, description: 'x' })).toBeDefined()
    expect(refused('run_code', { code: 'console.log(await tools.read({file_path: "src/a.ts"}))' })).toBeUndefined()
  })

  it('a patch tool is refused when a file it names is protected', () => {
    expect(refused('apply_patch', { patch: `*** Begin Patch\n*** Update File: ${root}/元/settings.json\n@@\n-{}\n+[]\n*** End Patch` })).toBeDefined()
    expect(refused('apply_patch', { patch: '*** Begin Patch\n*** Update File: src/a.ts\n*** End Patch' })).toBeUndefined()
  })

  it('the files are untouched by any of this (the guard only reads)', () => {
    expect(readFileSync(join(root, '元/settings.json'), 'utf8')).toBe('{}\n')
  })
})
