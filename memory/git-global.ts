import { spawnSync } from 'node:child_process'
import { statSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, isAbsolute, join } from 'node:path'

/**
 * What the host's git may take from the person's global git config (docs/decisions/284). That file
 * lies outside the store, where a model's tool call can change it, and a few of its keys make git
 * run a command below the host's own git (a process the store guard counts as the host's):
 * `url.*.insteadOf`, `uploadpack.packObjectsHook`, `core.sshCommand`, `core.pager`, an alias, an
 * include of another file. So the host's git reads no global config at all (GIT_CONFIG_GLOBAL is
 * /dev/null), and only these keys of it come along as `-c` overrides: how to reach a remote
 * (proxies, certificates) and whom to ask for credentials, when the helper is one git ships or one
 * installed where this user cannot write. The system config (/etc/gitconfig) is root's and read as usual.
 */

/** Keys carried whole, by their name after `http.` / `https.` (optionally `http.<url>.`). */
const HTTP_KEYS = new Set(['proxy', 'sslcainfo', 'sslcapath', 'sslverify', 'version', 'proxyauthmethod', 'sslbackend'])
/** `credential.<key>` and `credential.<url>.<key>` carried whole. */
const CREDENTIAL_KEYS = new Set(['username', 'usehttppath'])
/** Helpers git and the common keyrings ship, run as `git credential-<name>`. */
const KNOWN_HELPERS = new Set(['store', 'cache', 'libsecret', 'osxkeychain', 'manager', 'manager-core', 'wincred', 'gnome-keyring', 'oauth'])

/**
 * Helpers that keep what git hands them in a file of this user's: `store` rewrites `~/.git-credentials` (or its
 * `--file`, relative to the store when relative) through any link found there, `cache` makes its socket under
 * `~/.cache`. A tool call can put a link at either place, or name a store file, and the host's git would write a
 * credential line into the person's memory after a fetch (decision 306). For the host they only answer.
 */
const FILE_KEEPING_HELPERS = new Set(['store', 'cache'])

/** A carried helper value as the host's git runs it: `store` and `cache` asked only for what they hold (`get`). */
function answeringOnly(value: string): string {
  const words = value.trim().split(/\s+/)
  const name = words[0] ?? ''
  if (!FILE_KEEPING_HELPERS.has(name)) return value
  // The arguments passed `safeCredentialHelper` (no quote among them): each goes as one word.
  const args = words
    .slice(1)
    .map((w) => ` '${w}'`)
    .join('')
  return `!f() { if [ "$1" = get ]; then exec git credential-${name}${args} get; fi; }; f`
}

/** A helper value git may run for the host: a known helper's name with plain arguments, or a program this user cannot have planted. */
export function safeCredentialHelper(value: string, uid = process.getuid?.()): boolean {
  // An empty value clears the helpers listed before it: harmless.
  if (value.trim() === '') return true
  // `!…` is a shell command; quotes, $, ;, |, & and backquotes have no place in a plain argument list.
  if (value.startsWith('!') || /[`$;|&<>()"'\\\n]/.test(value)) return false
  const [program] = value.trim().split(/\s+/)
  if (program === undefined) return false
  if (KNOWN_HELPERS.has(program)) return true
  return isAbsolute(program) && notPlantable(program, uid)
}

/** A file, and every folder above it, owned by root and writable by no one else: a process of this user cannot have put it there. */
function notPlantable(path: string, uid: number | undefined): boolean {
  // Run as root, the model is root too: nothing is out of its reach.
  if (uid === undefined || uid === 0) return false
  try {
    for (let p = path; ; p = dirname(p)) {
      const st = statSync(p)
      if (st.uid !== 0 || (st.mode & 0o022) !== 0) return false
      if (dirname(p) === p) return true
    }
  } catch {
    return false
  }
}

/** git's words for false in a boolean setting ('' is `key =`; a key with no value at all is listed as true). */
const GIT_FALSE = new Set(['false', 'no', 'off', '0', ''])

/**
 * Which of the global config's `key=value` pairs the host's git takes (the rest it never reads). What would
 * weaken the check of the remote's certificate is left out (decision 319): `sslVerify` turned off, or a CA file
 * or folder this user could have planted. With a proxy of a call's choosing, either lets that proxy answer
 * for the remote. The person sets those in DSH's environment (`GIT_SSL_NO_VERIFY`, `GIT_SSL_CAINFO`) instead.
 */
export function carriedKey(key: string, value: string, uid = process.getuid?.()): boolean {
  const parts = key.split('.')
  const section = parts[0]
  const name = parts.at(-1)!
  if (parts.length < 2) return false
  if (section === 'http' || section === 'https') {
    if (name === 'sslverify') return !GIT_FALSE.has(value.trim().toLowerCase())
    if (name === 'sslcainfo' || name === 'sslcapath') return isAbsolute(value) && notPlantable(value, uid)
    return HTTP_KEYS.has(name)
  }
  if (section === 'credential') return name === 'helper' ? safeCredentialHelper(value) : CREDENTIAL_KEYS.has(name)
  return false
}

/** The `-z` listing of `git config --global --list` → its pairs, in order (a key may repeat: helpers add up). */
export function parseConfigList(text: string): [string, string][] {
  const out: [string, string][] = []
  for (const record of text.split('\0')) {
    if (record === '') continue
    const nl = record.indexOf('\n')
    out.push(nl < 0 ? [record, 'true'] : [record.slice(0, nl), record.slice(nl + 1)])
  }
  return out
}

let kept: { stamp: string; pairs: [string, string][] } | undefined

/** The files git reads as the global config, with their stamps: the listing is read again only when one changed. */
function globalStamp(env: NodeJS.ProcessEnv): string {
  const files =
    env.GIT_CONFIG_GLOBAL !== undefined
      ? [env.GIT_CONFIG_GLOBAL]
      : [join(env.XDG_CONFIG_HOME ?? join(env.HOME ?? homedir(), '.config'), 'git', 'config'), join(env.HOME ?? homedir(), '.gitconfig')]
  return files
    .map((f) => {
      try {
        const st = statSync(f)
        return `${f}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`
      } catch {
        return `${f}:-`
      }
    })
    .join('|')
}

/** The person's global settings the host's git takes, as `-c` pairs; none when git or the file cannot be read. */
export function carriedGlobalConfig(env: NodeJS.ProcessEnv): [string, string][] {
  const stamp = globalStamp(env)
  if (kept?.stamp === stamp) return kept.pairs
  // Includes are not followed (git's default with --global): an included file is another the model could write.
  const r = spawnSync('git', ['config', '--global', '--list', '-z'], { env: { ...env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' }, encoding: 'utf8' })
  const pairs =
    r.status === 0
      ? parseConfigList(r.stdout)
          .filter(([k, v]) => carriedKey(k, v))
          .map(([k, v]): [string, string] => [k, k.split('.').at(-1) === 'helper' ? answeringOnly(v) : v])
      : []
  kept = { stamp, pairs }
  return pairs
}
