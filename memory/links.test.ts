import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { execFile } from 'node:child_process'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { MemoryStore } from './store.ts'
import { checkStore } from './check.ts'
import { searchEntries } from '../recall/search.ts'
import { serializeEntry } from './entry.ts'
import { dayFileRel, ROOT_NAME } from './paths.ts'
import { RefusedError } from './validate.ts'
import { appendLine } from './fsio.ts'
import { importItems } from './importer.ts'
import { readAnchor } from './anchors.ts'
import { tempHome } from './testing/tmp.ts'

/** Issue 7 item 7: nothing below the store root is ever followed through a symbolic link. Real links. */
const BIN = fileURLToPath(new URL('../bin/cyrene.js', import.meta.url))
const run = promisify(execFile)

let t: Awaited<ReturnType<typeof tempHome>>
let outside: string
beforeEach(async () => {
  t = await tempHome()
  outside = join(t.home, 'outside')
  await fs.mkdir(outside, { mode: 0o755 })
  await fs.chmod(outside, 0o755)
})
afterEach(async () => {
  await t.cleanup()
})

const DAY = '2024-05-17'
const good = { text: '她喜欢下雨天散步。', kind: 'preference', axis: '美', reason: '她的审美' }
const SECRET_ID = '20240517T100000000Z-abc-secret01'
/** A file outside the store that looks like a day file, so reading through the link would show it. */
const secretText = `${serializeEntry({ text: '不该出现的外部内容', meta: { id: SECRET_ID, kind: 'fact', at: '2024-05-17T10:00:00.000Z', by: 'person', gate: 'day' } })}\n`

async function linkDayFile(): Promise<{ secret: string; rel: string }> {
  const secret = join(outside, 'secret.md')
  await fs.writeFile(secret, secretText)
  const rel = dayFileRel(DAY)
  await fs.mkdir(join(t.root, rel, '..'), { recursive: true })
  await fs.symlink(secret, join(t.root, rel))
  return { secret, rel }
}

async function cyrene(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: { ...process.env, DSH_HOME: t.home, LC_ALL: 'zh_CN.UTF-8' } })
    return { code: 0, stdout, stderr }
  } catch (e) {
    const x = e as { code?: unknown; stdout?: string; stderr?: string }
    return { code: typeof x.code === 'number' ? x.code : -1, stdout: x.stdout ?? '', stderr: x.stderr ?? '' }
  }
}

describe('symbolic links inside the store (issue 7 item 7)', () => {
  it('a day file linked to a file outside the store: the write is refused (link-in-store), the outside file is unchanged, its content never shows in list, get, search', async () => {
    const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const { secret, rel } = await linkDayFile()
    const err = await store.write({ ...good, at: DAY }, { by: 'person' }).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(RefusedError)
    expect(err).toMatchObject({ code: 'link-in-store' })
    expect((err as Error).message).toBe(
      `${rel} is a symbolic link; the memory store never follows links below its root — replace the link with the file itself, then try again`,
    )
    expect(await fs.readFile(secret, 'utf8')).toBe(secretText)
    expect((await fs.lstat(join(t.root, rel))).isSymbolicLink()).toBe(true)

    const { entries } = await store.scan()
    expect(entries.map((e) => e.id)).not.toContain(SECRET_ID)
    expect(await store.get(SECRET_ID)).toBeUndefined()
    const ofDay = await store.catalogFile(rel)
    expect(ofDay.entries).toEqual([])
    expect(ofDay.problems[0]!.message).toMatch(/is a symbolic link/)
    expect((await searchEntries(store, '外部内容')).map((h) => h.id)).not.toContain(SECRET_ID)
  })

  it('through the bin: the write exits 2 with the link message; list does not show the outside content; check reports the link → target and exits 1', async () => {
    await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const { secret, rel } = await linkDayFile()
    const w = await cyrene('memory', 'write', '她喜欢下雨天散步。', '--kind', 'preference', '--axis', '美', '--reason', '审美', '--at', DAY)
    expect(w.code).toBe(2)
    // The refusal in the person's language (LC_ALL zh), worded from its code (decision 078).
    expect(w.stderr).toContain(`${rel} 是一个符号链接；记忆库从不跟随自己目录下的链接`)
    expect(await fs.readFile(secret, 'utf8')).toBe(secretText)
    expect((await cyrene('memory', 'list', '--json')).stdout).not.toContain('不该出现的外部内容')
    const c = await cyrene('memory', 'check', '--json')
    expect(c.code).toBe(1)
    const errors = (JSON.parse(c.stdout) as { errors: Array<{ code: string; message: string; file: string }> }).errors
    expect(errors).toContainEqual(expect.objectContaining({ code: 'symlink', file: rel, message: expect.stringContaining(`${rel} → ${secret}`) }))
  })

  it('a day folder linked to an outside folder: nothing in it is read, writes into it are refused', async () => {
    const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    await fs.writeFile(join(outside, `${DAY}.md`), secretText)
    await fs.mkdir(join(t.root, '岁月涟漪/日档/2024'), { recursive: true })
    await fs.symlink(outside, join(t.root, '岁月涟漪/日档/2024/05'))
    await expect(store.write({ ...good, at: DAY }, { by: 'person' })).rejects.toThrow(
      '岁月涟漪/日档/2024/05 is a symbolic link; the memory store never follows links below its root',
    )
    expect(await fs.readdir(outside)).toEqual([`${DAY}.md`])
    expect(await fs.readFile(join(outside, `${DAY}.md`), 'utf8')).toBe(secretText)
    expect(await store.get(SECRET_ID)).toBeUndefined()
    expect((await store.entriesOfDate(DAY)).length).toBe(0)
  })

  it('check --fix never chmods through a link: a link to an outside folder keeps that folder 0755 (and is reported)', async () => {
    const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    await fs.symlink(outside, join(t.root, '余页/notes'))
    await fs.writeFile(join(outside, 'keep.txt'), 'x')
    await fs.chmod(join(outside, 'keep.txt'), 0o644)
    const report = await checkStore(store, { fix: true })
    expect((await fs.stat(outside)).mode & 0o777).toBe(0o755)
    expect((await fs.stat(join(outside, 'keep.txt'))).mode & 0o777).toBe(0o644)
    expect(report.fixed.filter((f) => f.includes('notes'))).toEqual([])
    expect(report.errors).toContainEqual(
      expect.objectContaining({ code: 'symlink', file: '余页/notes', message: expect.stringContaining(`余页/notes → ${outside}`) }),
    )
  })

  it('the root itself may be a link: writes, reads and check work through it, and check reports no link', async () => {
    const real = join(t.home, 'real-root')
    await fs.mkdir(real, { mode: 0o700 })
    await fs.symlink(real, join(t.home, ROOT_NAME))
    const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const r = await store.write({ ...good, at: DAY }, { by: 'person' })
    await store.writeMargin('notes.md', '自由书写', { by: 'person' })
    expect((await store.get(r.id))?.text).toBe(good.text)
    expect(await fs.readFile(join(real, r.file), 'utf8')).toContain(good.text)
    const report = await checkStore(store, { fix: true })
    expect(report.errors).toEqual([])
    expect((await fs.lstat(join(t.home, ROOT_NAME))).isSymbolicLink()).toBe(true)
    expect((await cyrene('memory', 'list')).stdout).toContain(good.text)
  })

  it('margin writes and the audit log refuse links too', async () => {
    const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const target = join(outside, 'margin.md')
    await fs.writeFile(target, 'outside\n')
    await fs.symlink(target, join(t.root, '余页/notes.md'))
    await expect(store.writeMargin('notes.md', '自由书写', { by: 'person' })).rejects.toMatchObject({ code: 'link-in-store' })
    const log = join(outside, 'audit.jsonl')
    await fs.writeFile(log, '')
    await fs.mkdir(join(t.root, '元/审计'), { recursive: true })
    await fs.symlink(log, join(t.root, '元/审计/2024-05.jsonl'))
    await expect(appendLine(join(t.root, '元/审计/2024-05.jsonl'), '{}', { root: t.root })).rejects.toMatchObject({ code: 'link-in-store' })
    expect(await fs.readFile(target, 'utf8')).toBe('outside\n')
    expect(await fs.readFile(log, 'utf8')).toBe('')
  })

  it('an anchor file or settings.json linked outside is never read: the anchor reads empty, settings are the defaults (issue 7 item 7)', async () => {
    const anchorTarget = join(outside, 'anchor.md')
    await fs.writeFile(anchorTarget, '外面的文字冒充锚点。\n')
    const settingsTarget = join(outside, 'settings.json')
    await fs.writeFile(settingsTarget, JSON.stringify({ quota: { totalMB: 1 } }))
    await MemoryStore.open({ env: { DSH_HOME: t.home } })
    await fs.symlink(anchorTarget, join(t.root, '锚/你是谁.md'))
    await fs.symlink(settingsTarget, join(t.root, '元/settings.json'))
    const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    expect(store.limits.totalBytes).toBe(128 * 1024 * 1024)
    const anchor = await readAnchor(store, 'user')
    expect(JSON.stringify(anchor)).not.toContain('外面的文字')
    const report = await checkStore(store)
    expect(report.errors.map((e) => e.message).join('\n')).toMatch(/锚\/你是谁\.md/)
  })

  it('an anchor folder linked outside is never read either: the anchors read empty (issue 7 item 7)', async () => {
    const folder = join(outside, 'anchors')
    await fs.mkdir(folder)
    await fs.writeFile(join(folder, '你是谁.md'), '外面文件夹里的锚点。\n')
    await MemoryStore.open({ env: { DSH_HOME: t.home } })
    await fs.rm(join(t.root, '锚'), { recursive: true })
    await fs.symlink(folder, join(t.root, '锚'))
    const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    expect(JSON.stringify(await readAnchor(store, 'user'))).not.toContain('外面')
  })
})

describe('元/ replaced by a link to a folder elsewhere', () => {
  it('no command takes the write lock through it: an import is refused (link-in-store) and nothing is made there or written', async () => {
    const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    await store.write(good, { by: 'person' })
    await store.close()
    const elsewhere = join(outside, 'meta')
    await fs.rename(join(t.root, '元'), elsewhere)
    await fs.symlink(elsewhere, join(t.root, '元'))
    const before = await fs.readdir(elsewhere)
    const again = await MemoryStore.open({ env: { DSH_HOME: t.home } }).catch((e: unknown) => e)
    if (again instanceof MemoryStore) {
      await expect(importItems(again, [{ text: '导入的一条', kind: 'fact', axis: '智', reason: '测试', origin: 'x:1' }])).rejects.toMatchObject({
        code: 'link-in-store',
      })
      await again.close()
    } else expect(again).toMatchObject({ code: 'link-in-store' })
    expect(await fs.readdir(elsewhere)).toEqual(before)
  })
})
