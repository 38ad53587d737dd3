import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { carriedKey, parseConfigList, safeCredentialHelper } from './git-global.ts'
import { gitText } from './git-run.ts'

describe('what the host’s git takes from the person’s global git config (decision 284)', () => {
  it('a credential helper git ships, with plain arguments, is taken; a shell command or a program this user could have planted is not', () => {
    expect(safeCredentialHelper('store')).toBe(true)
    expect(safeCredentialHelper('cache --timeout=3600')).toBe(true)
    expect(safeCredentialHelper('')).toBe(true)
    expect(safeCredentialHelper('!f() { sh /tmp/x; }; f')).toBe(false)
    expect(safeCredentialHelper('store --file=$(sh /tmp/x)')).toBe(false)
    expect(safeCredentialHelper('evil')).toBe(false)
    // /tmp is writable by everyone: a helper there may be anyone's.
    expect(safeCredentialHelper('/tmp/git-credential-x', 1000)).toBe(false)
    // Run as root, nothing is out of the model's reach.
    expect(safeCredentialHelper('/usr/bin/git', 0)).toBe(false)
    expect(safeCredentialHelper('/usr/bin/git', 1000)).toBe(true)
  })

  it('keys that make git run a command or go elsewhere are never taken', () => {
    expect(carriedKey('url.file:///tmp/evil.git.insteadof', '/srv/store.git')).toBe(false)
    expect(carriedKey('uploadpack.packobjectshook', '/tmp/hook.sh')).toBe(false)
    expect(carriedKey('core.sshcommand', 'ssh -o ProxyCommand=sh')).toBe(false)
    expect(carriedKey('include.path', '/tmp/more')).toBe(false)
    expect(carriedKey('alias.st', '!sh')).toBe(false)
    expect(carriedKey('http.proxy', 'http://proxy:3128')).toBe(true)
    expect(carriedKey('http.https://example.com.sslcainfo', '/etc/ssl/certs/ca-certificates.crt', 1000)).toBe(true)
    expect(carriedKey('credential.https://example.com.username', 'me')).toBe(true)
    expect(carriedKey('credential.helper', 'store')).toBe(true)
  })

  it('a certificate check turned off, or a CA file this user could have planted, is not taken: a proxy the file names could then answer for the remote (decision 319)', () => {
    for (const off of ['false', 'no', 'off', '0', '', 'FALSE']) expect(carriedKey('http.sslverify', off)).toBe(false)
    expect(carriedKey('http.https://example.com.sslverify', 'false')).toBe(false)
    expect(carriedKey('http.sslverify', 'true')).toBe(true)
    // /tmp is anyone's; a relative or ~ path is not checked, so not taken.
    expect(carriedKey('http.sslcainfo', '/tmp/ca.pem', 1000)).toBe(false)
    expect(carriedKey('http.sslcapath', '~/certs', 1000)).toBe(false)
    expect(carriedKey('http.sslcainfo', '/etc/ssl/certs/ca-certificates.crt', 1000)).toBe(true)
  })

  it('reads git’s -z listing, a key without a value as true', () => {
    expect(parseConfigList('http.proxy\nhttp://p:1\0credential.helper\n\0core.bare\0')).toEqual([
      ['http.proxy', 'http://p:1'],
      ['credential.helper', ''],
      ['core.bare', 'true'],
    ])
  })

  it('the host’s git sees the person’s credential helper and proxy, and none of the rest of their global config', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cyrene-git-global-'))
    try {
      writeFileSync(
        join(home, '.gitconfig'),
        '[credential]\n\thelper = store\n[http]\n\tproxy = http://proxy.invalid:3128\n[url "file:///tmp/evil.git"]\n\tinsteadOf = /srv/store.git\n[uploadpack]\n\tpackObjectsHook = /tmp/hook.sh\n[alias]\n\tst = !sh -c id\n',
      )
      const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config') }
      delete env.GIT_CONFIG_GLOBAL
      const seen = await gitText(['config', '--list'], { cwd: home, env })
      // The helper itself, asked only for what it holds (decision 306).
      expect(seen).toContain('credential.helper=!f() { if [ "$1" = get ]; then exec git credential-store get; fi; }; f')
      expect(seen).toContain('http.proxy=http://proxy.invalid:3128')
      expect(seen).not.toMatch(/insteadof|packobjectshook|alias\./i)
    } finally {
      rmSync(home, { recursive: true, force: true })
    }
  })

  it('a helper that keeps credentials in a file only answers: a ~/.git-credentials linked to a store file, or a relative --file, is never written (decision 306)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cyrene-git-global-'))
    try {
      const anchors = join(home, 'store', '锚')
      mkdirSync(anchors, { recursive: true })
      const anchor = join(anchors, '我是谁.md')
      writeFileSync(anchor, '# 我是谁\n\n昔涟。\n')
      // Both outside the store, where a tool call may write: the global config and the helper's default file.
      writeFileSync(join(home, '.gitconfig'), '[credential]\n\thelper = store\n\thelper = store --file=relative.md\n\thelper = cache --timeout=60\n')
      symlinkSync(anchor, join(home, '.git-credentials'))
      const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache') }
      delete env.GIT_CONFIG_GLOBAL
      // What git does after a fetch that a password let through: every helper is asked to keep it.
      await gitText(['credential', 'approve'], { cwd: anchors, env, input: 'protocol=https\nhost=example.com\nusername=me\npassword=s3cret\n\n' })
      expect(readFileSync(anchor, 'utf8')).toBe('# 我是谁\n\n昔涟。\n')
      expect(existsSync(join(anchors, 'relative.md'))).toBe(false)
      expect(existsSync(join(home, '.cache', 'git'))).toBe(false)
      // The person's stored credential is still found.
      rmSync(join(home, '.git-credentials'))
      writeFileSync(join(home, '.git-credentials'), 'https://me:s3cret@example.com\n', { mode: 0o600 })
      const filled = await gitText(['credential', 'fill'], { cwd: anchors, env, input: 'protocol=https\nhost=example.com\n\n' })
      expect(filled).toContain('password=s3cret')
    } finally {
      rmSync(home, { recursive: true, force: true })
    }
  })
})
