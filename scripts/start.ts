import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { dshEnv, killGroup, packInto, portInUse, REPO_ROOT, spawnWeb, waitForWeb } from './dsh-web.ts'
import { DSH_BIN, DSH_VERSION, ensureDsh } from './ensure-dsh.ts'

/**
 * `npm start`: try the plugin in the real `dsh web` without touching the
 * person's own DSH home. It packs this repository, installs the tarball (and,
 * with --offline, the scripted demo model in demo/model) into a home inside
 * the repository (.dsh-home/, git-ignored) or --home DIR, starts `dsh web`
 * in its own process group and prints the URL; Ctrl-C stops that group.
 * `npm run dsh -- <args>` runs any other `dsh` command against the same home.
 */
const DEFAULT_HOME = join(REPO_ROOT, '.dsh-home')
const DEFAULT_PORT = 3999
const DEMO_MODEL = 'cyrene-demo-model'
const PROFILES = ['web', 'headless'] as const

const USAGE = `usage: npm start -- [--offline] [--port N] [--home DIR]
       npm run dsh -- [--home DIR] <dsh arguments…>

  --offline    also install a scripted demo model as the home's default (no key needed)
  --port N     port for dsh web (default ${DEFAULT_PORT})
  --home DIR   DSH home to use (default .dsh-home/ in this repository; ~/.dsh and
               $DSH_HOME are never used unless given here)`

/** A refusal the person can act on: printed with the usage, exit code 2, nothing started. */
class UsageError extends Error {}

interface StartOptions {
  home: string
  port: number
  offline: boolean
}

function homeFrom(value: string | undefined): string {
  if (value === undefined) return DEFAULT_HOME
  if (value.trim() === '') throw new UsageError('--home needs a directory')
  return isAbsolute(value) ? value : resolve(process.env.INIT_CWD ?? process.cwd(), value)
}

function parseStart(argv: string[]): StartOptions {
  const { values } = parseArgs({
    args: argv,
    options: { offline: { type: 'boolean', default: false }, port: { type: 'string' }, home: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
    allowPositionals: false,
  })
  if (values.help === true) {
    process.stdout.write(USAGE + '\n')
    process.exit(0)
  }
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port)
  if (!Number.isInteger(port) || port < 1 || port > 65535 || !/^\d+$/.test(values.port ?? String(DEFAULT_PORT)))
    throw new UsageError(`--port must be a whole number from 1 to 65535, got ${JSON.stringify(values.port)}`)
  return { home: homeFrom(values.home), port, offline: values.offline === true }
}

function installDsh(): void {
  try {
    ensureDsh((line) => process.stderr.write(line + '\n'))
  } catch (error) {
    throw new Error(
      `could not install dsh ${DSH_VERSION} into .cache/: ${(error as Error).message}\nCheck the network and that \`npm ci\` ran, then try again.`,
      { cause: error },
    )
  }
}

function dsh(home: string, args: string[]): void {
  const result = spawnSync(DSH_BIN, args, { cwd: home, env: dshEnv(home), stdio: ['ignore', 'inherit', 'inherit'] })
  if (result.status !== 0) throw new Error(`dsh ${args.join(' ')} failed (exit ${result.status ?? result.signal})`)
}

function dependenciesOf(home: string, profile: string): string[] {
  try {
    return Object.keys(JSON.parse(readFileSync(join(home, 'profiles', profile, 'package.json'), 'utf8')).dependencies ?? {})
  } catch {
    return []
  }
}

/**
 * Packs `dir` into tarballs/<content hash>/: pnpm keeps a `file:` tarball it already installed from
 * the same path as it is ("Already up to date"), so a changed build must arrive under a new path.
 * The tarballs an earlier install came from stay until the new one is in: pnpm reads them again.
 */
function packByContent(dir: string, tarballs: string): string {
  const staging = join(tarballs, '.packing')
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(staging, { recursive: true })
  const packed = packInto(dir, staging)
  const folder = join(tarballs, createHash('sha256').update(readFileSync(packed)).digest('hex').slice(0, 16))
  mkdirSync(folder, { recursive: true })
  const target = join(folder, basename(packed))
  renameSync(packed, target)
  rmSync(staging, { recursive: true, force: true })
  return target
}

/** Packs the plugin (prepack compiles it) and the demo model, and installs them into the home's profiles. */
function install(options: StartOptions): void {
  const tarballs = join(options.home, 'tarballs')
  process.stderr.write('npm start: building and packing the plugin…\n')
  const plugin = packByContent(REPO_ROOT, tarballs)
  const demo = options.offline ? packByContent(join(REPO_ROOT, 'demo', 'model'), tarballs) : undefined
  for (const profile of PROFILES) {
    process.stderr.write(`npm start: installing into the ${profile} profile of ${options.home}…\n`)
    if (demo !== undefined) dsh(options.home, ['plugin', '--profile', profile, 'add', demo])
    else if (dependenciesOf(options.home, profile).includes(DEMO_MODEL)) dsh(options.home, ['plugin', '--profile', profile, 'remove', DEMO_MODEL])
    dsh(options.home, ['plugin', '--profile', profile, 'add', plugin])
  }
  const current = new Set([plugin, demo].filter((t) => t !== undefined).map((t) => basename(dirname(t))))
  for (const entry of readdirSync(tarballs)) if (!current.has(entry)) rmSync(join(tarballs, entry), { recursive: true, force: true })
}

/** `npm run cyrene --` works in every npm (a package's own bin is linked for `npx` only by some); the home is quoted for the shell. */
function cliLine(home: string): string {
  const quoted = /^[\w@%+=:,./-]+$/.test(home) ? home : `'${home.replace(/'/g, `'\\''`)}'`
  return `DSH_HOME=${quoted} npm run cyrene -- doctor`
}

let stopping = false

/** Stops the whole process group of `dsh web` (it starts its own children), then exits 0. */
function stopOnSignals(web: ChildProcess): void {
  const stop = (): void => {
    if (stopping) return
    stopping = true
    process.stderr.write('\nnpm start: stopping dsh web…\n')
    killGroup(web, 'SIGTERM')
    const force = setTimeout(() => killGroup(web, 'SIGKILL'), 5000)
    force.unref()
    web.once('exit', () => {
      killGroup(web, 'SIGKILL')
      process.exit(0)
    })
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  process.on('SIGHUP', stop)
}

async function start(options: StartOptions): Promise<void> {
  if (await portInUse(options.port)) throw new Error(`port ${options.port} is already in use; pick another with \`npm start -- --port N\`.`)
  installDsh()
  mkdirSync(options.home, { recursive: true })
  install(options)
  const workspace = join(options.home, 'workspace')
  mkdirSync(workspace, { recursive: true })
  const { web, output, stopKeeping } = spawnWeb(options.home, options.port, {
    cwd: workspace,
    // dsh web's stderr comes to this terminal: the settings page's pairing code may be shown there (CONTRACT#pairing).
    env: process.stderr.isTTY === true ? { CYRENE_PAIRING_STDERR: '1' } : {},
  })
  stopOnSignals(web)
  try {
    await waitForWeb(options.port, web, output)
  } catch (error) {
    killGroup(web, 'SIGKILL')
    throw error
  }
  // From here on the server's own output goes to the terminal as it comes. Its start-up output
  // stays hidden, except the settings page's pairing code, which the row prints while DSH starts.
  stopKeeping()
  const kept = output()
  for (const line of pairingLines(kept)) process.stderr.write(`${line}\n`)
  // A pairing line still being written when the server answered: its start goes out first, the rest follows through the pipe.
  const unfinished = kept.slice(kept.lastIndexOf('\n') + 1)
  if (unfinished.includes('Cyrene settings pairing code')) process.stderr.write(unfinished)
  web.stdout?.pipe(process.stdout)
  web.stderr?.pipe(process.stderr)
  web.once('exit', (code, signal) => {
    if (stopping) return
    process.stderr.write(`npm start: dsh web exited (${code ?? signal}).\n`)
    process.exit(code === 0 ? 0 : 1)
  })
  const model = options.offline ? 'the offline demo model (say 记住：… / remember …, then ask about it)' : 'your own key (the web UI asks for it)'
  process.stdout.write(`dsh web pid ${web.pid}\n`)
  process.stdout.write(
    `昔涟 is ready at http://127.0.0.1:${options.port}/ — pick 昔涟聊天模式 (chat); model: ${model}. DSH home: ${options.home}. Ctrl-C stops.\n`,
  )
  // The command line reads ~/.dsh unless told otherwise: the one line that points it at this home.
  process.stdout.write(`The command line, on this home: ${cliLine(options.home)}\n`)
}

/** The lines of dsh web's start-up output that carry the settings page's pairing code (panel/pairing.ts). */
function pairingLines(output: string): string[] {
  return output.split('\n').filter((line) => /Cyrene settings pairing code[^:]*: [A-Z0-9]{5}-[A-Z0-9]{5}$/.test(line.trimEnd()))
}

/** `npm run dsh -- [--home DIR] <args>`: any dsh command against the same home, with the right Node and pnpm. */
function runDsh(argv: string[]): void {
  let home = DEFAULT_HOME
  let args = argv
  if (args[0] === '--home') {
    home = homeFrom(args[1] ?? '')
    args = args.slice(2)
  } else if (args[0]?.startsWith('--home=')) {
    home = homeFrom(args[0].slice('--home='.length))
    args = args.slice(1)
  }
  installDsh()
  mkdirSync(home, { recursive: true })
  // The terminal's Ctrl-C reaches dsh directly (same process group); this process only waits for it.
  process.on('SIGINT', () => {})
  const child = spawn(DSH_BIN, args, { cwd: process.env.INIT_CWD ?? process.cwd(), env: dshEnv(home), stdio: 'inherit' })
  child.once('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 128 + 2)))
}

async function main(argv: string[]): Promise<void> {
  try {
    if (argv[0] === 'dsh') runDsh(argv.slice(1))
    else await start(parseStart(argv))
  } catch (error) {
    const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    process.stderr.write(`npm start: ${(error as Error).message}\n${usage ? USAGE + '\n' : ''}`)
    process.exit(usage ? 2 : 1)
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main(process.argv.slice(2))
