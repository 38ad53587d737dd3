import { describe, expect, it } from 'vitest'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Issue 23: CONTRACT.md is the promise, each promise under a named anchor that code and docs
 * cite as `CONTRACT#<name>` (a link: `CONTRACT.md#<name>`) instead of a section number, so a
 * reordered contract breaks no pointer. This holds the three rules: every cited anchor exists,
 * nothing cites the contract by section number any more, and the contract stays small.
 */
const repo = fileURLToPath(new URL('../', import.meta.url))
const contractText = readFileSync(join(repo, 'CONTRACT.md'), 'utf8')
const MAX_BYTES = 30 * 1024
/** The section sign, written as an escape so this file is no citation itself. */
const SECTION = '\u00a7'

const SKIP = new Set(['node_modules', '.git', 'dist', '.cache', 'coverage', '.persona-ab', '.dsh-home'])
const TEXT = /\.(ts|mts|cts|js|mjs|cjs|md|json|jsonc|ya?ml|txt|html|css)$/

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue
    const path = join(dir, name)
    const st = statSync(path, { throwIfNoEntry: false })
    if (st?.isDirectory()) files(path, out)
    else if (st?.isFile() && TEXT.test(name)) out.push(path)
  }
  return out
}

/** The anchors CONTRACT.md defines: `<a id="name"></a>`. */
function anchorsOf(text: string): string[] {
  return [...text.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]!)
}

/** Every `CONTRACT#<name>` and `CONTRACT.md#<name>` in a text, with its line. */
function citationsOf(text: string): { anchor: string; line: number }[] {
  return [...text.matchAll(/CONTRACT(?:\.md)?#([A-Za-z0-9_-]+)/g)].map((m) => ({
    anchor: m[1]!,
    line: text.slice(0, m.index).split('\n').length,
  }))
}

/** A citation of the contract by section number (the section sign after CONTRACT, CONTRACT.md, its link, contract or 契约). */
function sectionCitationsOf(text: string): { text: string; line: number }[] {
  const re = /(?:\[CONTRACT(?:\.md)?\]\([^)]*\)|\[?CONTRACT(?:\.md)?`?|\b[Cc]ontract(?:'s)?|契约)[\s*/#]*\u00a7\s?\d+(?:\.\d+)*/g
  return [...text.matchAll(re)].map((m) => ({ text: m[0].replace(/\s+/g, ' '), line: text.slice(0, m.index).split('\n').length }))
}

const all = files(repo).map((path) => ({ rel: relative(repo, path).split(sep).join('/'), text: readFileSync(path, 'utf8') }))

describe('CONTRACT.md anchors (issue 23)', () => {
  const anchors = anchorsOf(contractText)

  it('CONTRACT.md stays within 30 KB', () => {
    expect(Buffer.byteLength(contractText, 'utf8')).toBeLessThanOrEqual(MAX_BYTES)
  })

  it('defines each anchor once, in the one scheme (lower-case words joined by -)', () => {
    expect(anchors.length).toBeGreaterThan(50)
    expect(anchors.filter((a, i) => anchors.indexOf(a) !== i)).toEqual([])
    expect(anchors.filter((a) => !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(a))).toEqual([])
  })

  it('every cited CONTRACT anchor anywhere in the repository exists', () => {
    const missing = all.flatMap(({ rel, text }) =>
      citationsOf(text)
        .filter((c) => !anchors.includes(c.anchor))
        .map((c) => `${rel}:${c.line} CONTRACT#${c.anchor}`),
    )
    expect(missing).toEqual([])
  })

  it('CONTRACT.md refers to its own promises by anchors it has, never by section sign', () => {
    const own = [...contractText.matchAll(/(?<![\w`/.])#([a-z][a-z0-9-]*)/g)].map((m) => m[1]!)
    expect(own.filter((a) => !anchors.includes(a))).toEqual([])
    expect(contractText.includes(SECTION)).toBe(false)
  })

  it('nothing cites the contract by section number', () => {
    const left = all.flatMap(({ rel, text }) => sectionCitationsOf(text).map((c) => `${rel}:${c.line} ${c.text}`))
    expect(left).toEqual([])
  })

  it('the checks see what they are meant to see', () => {
    expect(citationsOf(`see CONTRACT${'#'}no-such-promise and [x](../CONTRACT.md${'#'}locks)`).map((c) => c.anchor)).toEqual(['no-such-promise', 'locks'])
    expect(anchors).not.toContain('no-such-promise')
    const s = SECTION
    const sample = `(CONTRACT ${s}2.4) (contract\n * ${s}6) [CONTRACT.md](CONTRACT.md) ${s}12 契约 ${s}9 spec ${s}3.0`
    expect(sectionCitationsOf(sample).map((c) => c.text)).toEqual([`CONTRACT ${s}2.4`, `contract * ${s}6`, `[CONTRACT.md](CONTRACT.md) ${s}12`, `契约 ${s}9`])
  })
})
