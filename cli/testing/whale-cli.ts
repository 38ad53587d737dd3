// The helpers the `cyrene whale` tests share (cli/whale.test.ts, cli/whale-presets.test.ts):
// the command run in-process as main.ts runs it, scratch folders, file trees to prove a refusal
// wrote nothing, and hand-made PNG cards.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { crc32 } from 'node:zlib'
import { expect } from 'vitest'
import { CliError, memoryIO } from '../io.ts'
import { run as runCli } from '../main.ts'

export const repo = path.resolve(import.meta.dirname, '../..')
export const sample = path.join(repo, 'tests/fixtures/whale-sample')

export interface Outcome {
  code: number
  stdout: string
  stderr: string
}

/** Runs `cyrene whale …` in-process, the way main.ts does (CliError → message + code). */
export async function whale(argv: string[], cwd: string, env: Record<string, string> = {}): Promise<Outcome> {
  // The English words are asserted below (cli/whale-language.test.ts checks both languages).
  const io = memoryIO({ DSH_HOME: 'home', LANG: 'en_US.UTF-8', ...env }, cwd)
  try {
    return { code: await runCli(['whale', ...argv], io), stdout: io.out(), stderr: io.err() }
  } catch (error) {
    if (error instanceof CliError) return { code: error.code, stdout: io.out(), stderr: io.err() + error.message }
    throw error
  }
}

const temps: string[] = []
export function scratch(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'whale-cli-'))
  temps.push(dir)
  return dir
}
/** Removes every folder `scratch` made; each test file calls it from its own afterEach. */
export function removeScratch(): void {
  while (temps.length) rmSync(temps.pop()!, { recursive: true, force: true })
}

export function put(dir: string, rel: string, content: string | Buffer | object): string {
  const file = path.join(dir, rel)
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, typeof content === 'string' || Buffer.isBuffer(content) ? content : JSON.stringify(content, null, 2))
  return file
}
export const read = (dir: string, rel: string): string => readFileSync(path.join(dir, rel), 'utf8')
export const json = (text: string): any => JSON.parse(text)
export const jsonl = (...o: object[]): string => o.map((x) => JSON.stringify(x)).join('\n') + '\n'

/** A snapshot of every file under dir, to prove a refusal wrote nothing. */
export function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const f = path.join(d, name)
      if (statSync(f).isDirectory()) walk(f)
      else out[path.relative(dir, f)] = readFileSync(f).toString('base64')
    }
  }
  walk(dir)
  return out
}

/** A refusal: exit 2, a message that says what is wrong, and not one byte changed under dir. */
export async function expectRefusal(dir: string, argv: string[], message: string | RegExp): Promise<void> {
  const before = tree(dir)
  const out = await whale(argv, dir)
  expect(out.code).toBe(2)
  if (typeof message === 'string') expect(out.stderr).toContain(message)
  else expect(out.stderr).toMatch(message)
  expect(tree(dir)).toEqual(before)
}

/** One refused command line: its arguments, words its error holds, and fields its JSON report holds beside `ok: false`. */
export type JsonRefusal = [argv: string[], why: string, fields: object]

/**
 * Each command line, in English and in Chinese, exits 2 with one JSON object on stdout: `ok: false`, the fields
 * given, an `error` holding `why` (English whatever the language). `stderrToo`: the English run's stderr holds it too.
 */
export async function expectJsonRefusals(dir: string, refusals: readonly JsonRefusal[], o: { stderrToo?: boolean } = {}): Promise<void> {
  for (const [argv, why, fields] of refusals) {
    for (const lang of ['en', 'zh']) {
      const out = await whale(['--lang', lang, ...argv], dir)
      expect(out.code, argv.join(' ')).toBe(2)
      const report = json(out.stdout)
      expect(report, argv.join(' ')).toMatchObject({ ok: false, ...fields })
      expect(report.error, argv.join(' ')).toContain(why)
      if (o.stderrToo === true && lang === 'en') expect(out.stderr).toContain(why)
    }
  }
}

export function png(chunks: [string, Buffer][], opts: { badCrc?: boolean } = {}): Buffer {
  const parts: Buffer[] = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])]
  for (const [type, data] of chunks) {
    const head = Buffer.alloc(8)
    head.writeUInt32BE(data.length, 0)
    head.write(type, 4, 'latin1')
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE((crc32(Buffer.concat([head.subarray(4), data])) ^ (opts.badCrc && type !== 'IEND' ? 1 : 0)) >>> 0, 0)
    parts.push(head, data, crc)
  }
  return Buffer.concat(parts)
}
export const ihdr = (): [string, Buffer] => ['IHDR', Buffer.from('0000000100000001080600000000', 'hex').subarray(0, 13)]
export const iend = (): [string, Buffer] => ['IEND', Buffer.alloc(0)]
export const b64 = (o: object): string => Buffer.from(JSON.stringify(o), 'utf8').toString('base64')
