import { describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Issue 13 item 4: started by a Node older than package.json's engines.node,
 * `cyrene` says in one line what it needs, what it found and how to get it,
 * and exits 3 (the system refused, CONTRACT#exit-codes) — no stack trace.
 */
const repo = fileURLToPath(new URL('../', import.meta.url))
// Plain JavaScript beside the bin (it must run before anything compiled), so typed here by hand.
const check = '../bin/node-version.js'
const { nodeVersionProblem } = (await import(check)) as {
  nodeVersionProblem: (found: string, engines: string, execPath: string) => string | undefined
}
const engines = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node
const parseVersion = (text: string): number[] | undefined => /^v?(\d+)\.(\d+)/.exec(text.trim())?.slice(1).map(Number)
const required = parseVersion(engines.replace('>=', ''))!

/** A real older Node on this machine (the system `node` is 20 here; npx puts a newer one first on PATH). */
function olderNode(): { path: string; version: string } | undefined {
  const candidates = ['/usr/bin/node', '/bin/node', ...(process.env.PATH ?? '').split(delimiter).map((d) => join(d, 'node'))]
  for (const path of candidates) {
    const r = spawnSync(path, ['--version'], { encoding: 'utf8' })
    const v = r.status === 0 ? parseVersion(r.stdout) : undefined
    if (v !== undefined && (v[0]! < required[0]! || (v[0] === required[0] && v[1]! < required[1]!))) return { path, version: r.stdout.trim().slice(1) }
  }
  return undefined
}

describe('the Node version check of bin/cyrene.js (issue 13 item 4)', () => {
  it('says what is needed, what was found and how to get it; nothing when new enough', () => {
    const line = nodeVersionProblem('20.20.2', '>=22.19', '/usr/bin/node')!
    expect(line).toMatch(/needs Node\.js 22\.19 or newer; this is Node\.js 20\.20\.2 \(\/usr\/bin\/node\)/)
    expect(line).toMatch(/nvm install 22|nodejs\.org/)
    expect(line).not.toContain('\n')
    expect(nodeVersionProblem('22.18.9', '>=22.19', 'node')).toBeDefined()
    expect(nodeVersionProblem('22.19.0', '>=22.19', 'node')).toBeUndefined()
    expect(nodeVersionProblem('24.1.0', '>=22.19', 'node')).toBeUndefined()
    expect(nodeVersionProblem(process.versions.node, engines, process.execPath)).toBeUndefined()
  })

  it('run by a real older node: one line on stderr, exit 3, no stack trace', () => {
    const old = olderNode()
    if (old === undefined) throw new Error(`this test needs a Node older than ${engines} on the machine (the system node is 20 here)`)
    const r = spawnSync(old.path, [join(repo, 'bin/cyrene.js'), 'memory', 'list'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, DSH_HOME: '/nonexistent' },
    })
    expect(r.status).toBe(3)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe(`cyrene: ${nodeVersionProblem(old.version, engines, old.path)}\n`)
    expect(r.stderr).not.toMatch(/\n\s+at |node:internal/)
  })
})
