import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { catBlobs, git, GitDamagedError } from './git-run.ts'

let dir: string | undefined
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  dir = undefined
})

it('an object the history names that cannot be read is damage, never an empty file; a path no commit holds is only missing (decision 287)', async () => {
  dir = mkdtempSync(join(tmpdir(), 'cyrene-git-run-'))
  const git = (...args: string[]) => execFileSync('git', ['-C', dir!, ...args], { encoding: 'utf8' }).trim()
  git('init', '--quiet', '-b', 'main')
  writeFileSync(join(dir, 'day.md'), '第一条\n')
  git('add', 'day.md')
  git('-c', 'user.name=x', '-c', 'user.email=x@x', 'commit', '--quiet', '-m', 'one')
  const blob = git('rev-parse', 'HEAD:day.md')
  const opts = { cwd: dir }
  // The null id is how the merge names "no file on that side" (git-stage.ts): absent, not damaged.
  const none = '0'.repeat(40)
  expect((await catBlobs([blob, 'HEAD:nothing-here.md', none], opts)).map((b) => b?.toString('utf8'))).toEqual(['第一条\n', undefined, undefined])
  // The loose object rots on disk.
  const object = join(dir, '.git/objects', blob.slice(0, 2), blob.slice(2))
  chmodSync(object, 0o644)
  writeFileSync(object, Buffer.from('not a zlib stream'))
  await expect(catBlobs([blob], opts)).rejects.toBeInstanceOf(GitDamagedError)
  await expect(catBlobs(['HEAD:day.md'], opts)).rejects.toBeInstanceOf(GitDamagedError)
})

it('the ssh the host’s git runs reads no ssh config, where a tool call could plant a ProxyCommand; an ssh command DSH was started with stays (decision 319)', async () => {
  dir = mkdtempSync(join(tmpdir(), 'cyrene-git-ssh-'))
  // An ssh that writes down how it was called: the one a remote's fetch runs.
  const bin = join(dir, 'bin')
  mkdirSync(bin)
  writeFileSync(join(bin, 'ssh'), `#!/bin/sh\nprintf '%s\\n' "$@" > ${join(dir, 'argv')}\nexit 1\n`, { mode: 0o755 })
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` }
  delete env.GIT_SSH_COMMAND
  delete env.GIT_SSH
  const called = async (more: NodeJS.ProcessEnv): Promise<string[]> => {
    rmSync(join(dir!, 'argv'), { force: true })
    await git(['ls-remote', 'ssh://git@cyrene.invalid/store.git'], { cwd: dir!, env: { ...env, ...more }, ok: [128] })
    return readFileSync(join(dir!, 'argv'), 'utf8').split('\n')
  }
  const plain = await called({})
  expect(plain.slice(0, 2)).toEqual(['-F', '/dev/null'])
  const own = await called({ GIT_SSH_COMMAND: 'ssh -o BatchMode=yes' })
  expect(own).toContain('BatchMode=yes')
  expect(own).not.toContain('/dev/null')
})
