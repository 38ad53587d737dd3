import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { personaSourcesIn } from '../host/persona-sources.ts'
import { personaFingerprint } from '../memory/person.ts'
import { dshEnv, packInto, runChecked } from '../scripts/dsh-web.ts'
import { DSH_BIN } from '../scripts/ensure-dsh.ts'
import type { Version } from './order.ts'

/** Only these come from the base ref; everything else is the working tree's (issue 15). */
const PERSONA_DIRS = ['persona', 'philosophy'] as const

export class VersionError extends Error {}

export interface BuiltVersion {
  version: Version
  /** The ref the persona came from, or `working tree`. */
  source: string
  /** The package folder: the working tree's files with this version's persona, presets rebuilt from it. */
  dir: string
  tarball: string
  fingerprint: string
}

function git(repo: string, args: string[]): string {
  const result = spawnSync('git', args, { cwd: repo, encoding: 'buffer', maxBuffer: 1 << 30 })
  if (result.status !== 0) throw new VersionError(`git ${args.join(' ')}: ${result.stderr.toString().trim() || `exit ${result.status}`}`)
  return result.stdout.toString('utf8')
}

/** The commit a ref names, or a message saying what to pass instead. */
export function resolveRef(repo: string, ref: string): string {
  if (ref.startsWith('-')) throw new VersionError(`--base ${ref}: a git ref cannot start with -`)
  try {
    return git(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).trim()
  } catch {
    throw new VersionError(`--base ${ref}: no such commit in ${repo} (try a branch, a tag or a commit id, e.g. --base HEAD~1)`)
  }
}

/** The working tree's files as git sees them (tracked and new, not ignored), plus the compiled dist/. */
function workingTreeFiles(repo: string): string[] {
  const listed = git(repo, ['ls-files', '-z', '--cached', '--others', '--exclude-standard']).split('\0').filter(Boolean)
  return listed.filter((rel) => existsSync(join(repo, rel)))
}

function copyTree(repo: string, files: readonly string[], into: string): void {
  for (const rel of files) {
    const target = join(into, rel)
    mkdirSync(dirname(target), { recursive: true })
    copyFileSync(join(repo, rel), target)
  }
}

/**
 * A package folder for one side of the A/B: the working tree (its compiled
 * dist/ included), with persona/ and philosophy/ replaced by the ref's when a
 * ref is given, presets rebuilt from that persona by the project's own build,
 * packed without running prepack (dist/ is already the working tree's).
 */
export async function buildVersion(opts: { repo: string; work: string; version: Version; ref?: string }): Promise<BuiltVersion> {
  const root = join(opts.work, 'versions', opts.version)
  const dir = join(root, 'package')
  rmSync(root, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const files = workingTreeFiles(opts.repo)
  const dist = git(opts.repo, ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--', 'dist']).split('\0').filter(Boolean)
  if (dist.length === 0) throw new VersionError(`no compiled dist/ in ${opts.repo}: run \`npm run compile\` first`)
  copyTree(opts.repo, [...files, ...dist], dir)
  let source = 'working tree'
  if (opts.ref !== undefined) {
    const commit = resolveRef(opts.repo, opts.ref)
    source = `${opts.ref} (${commit.slice(0, 12)})`
    for (const folder of PERSONA_DIRS) rmSync(join(dir, folder), { recursive: true, force: true })
    const tar = spawnSync('git', ['archive', '--format=tar', commit, ...PERSONA_DIRS], { cwd: opts.repo, maxBuffer: 1 << 30 })
    if (tar.status !== 0) throw new VersionError(`${opts.ref} has no ${PERSONA_DIRS.join('/ or ')}/: ${tar.stderr.toString().trim()}`)
    const untar = spawnSync('tar', ['-x', '-C', dir], { input: tar.stdout })
    if (untar.status !== 0) throw new VersionError(`could not unpack the persona of ${opts.ref}: ${untar.stderr.toString().trim()}`)
  }
  symlinkSync(join(opts.repo, 'node_modules'), join(dir, 'node_modules'), 'dir')
  runChecked(process.execPath, [join('scripts', 'build.ts')], { cwd: dir })
  const tarball = packInto(dir, root, { ignoreScripts: true })
  return { version: opts.version, source, dir, tarball, fingerprint: await personaFingerprint(personaSourcesIn(dir)) }
}

/** Installs a version (and, offline, the scripted demo model) into a DSH home of its own. */
export function installVersion(built: BuiltVersion, home: string, demoTarball: string | undefined): void {
  mkdirSync(home, { recursive: true })
  const env = dshEnv(home)
  if (demoTarball !== undefined) runChecked(DSH_BIN, ['plugin', '--profile', 'web', 'add', demoTarball], { cwd: home, env })
  runChecked(DSH_BIN, ['plugin', '--profile', 'web', 'add', built.tarball], { cwd: home, env })
}
