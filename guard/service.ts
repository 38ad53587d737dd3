import { existsSync, realpathSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { Service, type Context } from '@deepseek-ai/cordis'
import type {} from '@deepseek-ai/dsh-tools'
import { resolveRoot, snapshotsDirOf } from '../memory/paths.ts'
import { locate } from '../whale/index.ts'
import type { StoreGuardState } from './types.ts'
import { EffectsGuard } from './effects.ts'
import { putBackDirOf } from './aside.ts'
import { StoreProtection } from './paths.ts'
import { checkToolCall, type Refusal } from './tools.ts'

declare module '@deepseek-ai/cordis' {
  interface Context {
    cyreneStoreGuard: StoreGuard
  }
}

/** What the guard needs to know of a DSH tool execution (its real type is wider). */
interface Execution {
  name: string
  arguments: unknown
  agent?: { session: { header: { cwd?: string } } }
}

interface ToolResult {
  isError: boolean
  content?: unknown[]
  error?: { message: string }
}

const textBlock = (text: string) => ({ type: 'text', text })

/**
 * The host-level guard (CONTRACT#store-guard): registered once on the host plane with
 * `ctx.tools.guard`, so it covers every agent of every preset, DSH's own
 * included. DSH runs guards after the `tools/pre-execute` waterfall, whatever
 * the permission mode or an approval decided, and no later listener can turn
 * its denial back into permission — that is why this is a guard and not a
 * pre-execute listener (a full-access listener may answer `allow` without
 * asking the others).
 */
export class StoreGuard extends Service {
  static inject = ['tools']
  private readonly protection: StoreProtection | undefined
  private readonly rootError: string | undefined
  private refusals = 0
  private last: { at: string; tool: string; target: string } | undefined
  private checkErrors = 0
  /** SIGUSR1s that would have opened Node's inspector in the host. */
  private inspectorRefusals = 0
  readonly effects: EffectsGuard | undefined

  constructor(ctx: Context, config: { rootDir: string; pollMs?: number }) {
    super(ctx, 'cyreneStoreGuard')
    let protection: StoreProtection | undefined
    try {
      protection = new StoreProtection(resolveRoot({ rootDir: config.rootDir === '' ? undefined : config.rootDir, env: process.env }))
    } catch (error) {
      // No place for a store means no store to protect; the doctor says so.
      this.rootError = (error as Error).message
    }
    this.protection = protection
    if (protection === undefined) return
    ctx.effect(() => ctx.tools.guard((exec) => this.check(exec as unknown as Execution)), 'cyrene: store guard')
    // Node opens its inspector on SIGUSR1, and a tool call's shell may send it (kill -USR1 $PPID): code run
    // there is the host's own, no window open, so it writes where the model may not. A listener keeps it shut.
    ctx.effect(() => {
      const refuse = () => void this.inspectorRefusals++
      process.on('SIGUSR1', refuse)
      return () => void process.off('SIGUSR1', refuse)
    }, 'cyrene: no inspector on SIGUSR1')
    const effects = new EffectsGuard({ ...protectedFolders(protection.root), pollMs: config.pollMs ?? 150 })
    this.effects = effects
    ctx.effect(() => () => effects.dispose(), 'cyrene: store guard watch')
    // The boundary: what a call changed is compared and put back around the tool body (docs/decisions/010).
    ctx.on('tools/execute', async (exec, next) => {
      if (!effects.watches(exec.name)) return await next()
      const refused = await effects.before(exec.name)
      if (refused !== undefined) {
        this.refusals++
        this.last = { at: new Date().toISOString(), tool: exec.name, target: '(guard could not look)' }
        return { isError: true, content: [textBlock(`Error: ${refused}`)], error: { message: refused } } as never
      }
      let result: ToolResult | undefined
      try {
        result = (await next()) as unknown as ToolResult
      } finally {
        const outcome = await effects.after(exec.name)
        const said = [...outcome.notes, ...(outcome.error === undefined ? [] : [outcome.error])]
        // A call whose effects were undone is a failed call: the model reads why.
        if (said.length > 0 && result !== undefined)
          result = { isError: true, content: [...(result.content ?? []), ...said.map(textBlock)], error: { message: said.join('\n') } }
      }
      return result as never
    })
    // What a process left running changed after its call returned is told with the next result the model reads.
    ctx.on('tools/post-execute', async (_exec, result, next) => {
      const notes = effects.takeNotes()
      if (notes.length === 0) return await next()
      const decision = await next()
      if (decision.kind !== 'accept') return decision
      const content = (decision as { content?: unknown[] }).content ?? (result as unknown as ToolResult).content ?? []
      return { ...decision, content: [...content, ...notes.map(textBlock)] } as never
    })
  }

  /** DSH's guard callback: a reason refuses the call. */
  private check(exec: Execution): string | undefined {
    const protection = this.protection!
    let refused: Refusal | undefined
    try {
      refused = checkToolCall(
        {
          name: exec.name,
          args: exec.arguments,
          cwd: this.cwdOf(exec),
          env: { home: safeHome(), vars: { HOME: safeHome(), DSH_HOME: process.env.DSH_HOME, USER: process.env.USER } },
        },
        protection,
      )
    } catch (error) {
      // A guard that cannot decide refuses (closed toward the data).
      this.checkErrors++
      refused = {
        tool: exec.name,
        target: '(could not check)',
        why: 'check failed',
        message:
          `Refused by Cyrene's store guard: it could not read this \`${exec.name}\` call (${(error as Error).message}), and a call it cannot check is not run. ` +
          'Nothing was run or changed. Split the command into simpler steps (plain paths, no quoting tricks), or tell the person the command and let them run it.',
      }
    }
    if (refused === undefined) return undefined
    this.refusals++
    this.last = { at: new Date().toISOString(), tool: refused.tool, target: refused.target }
    return refused.message
  }

  /** The folder DSH resolves this call's relative paths against; unknown for a shell that keeps its own folder. */
  private cwdOf(exec: Execution): string | undefined {
    const session = exec.agent?.session.header.cwd ?? process.cwd()
    if (exec.name !== 'bash' && exec.name !== 'pwsh') return session
    // The persistent shells (minimal preset) take only `command`: their folder moves with earlier calls.
    const def = this.ctx.tools.get(exec.name, exec.agent as never) as { parameters?: { properties?: Record<string, unknown> } } | undefined
    return def?.parameters?.properties?.workdir === undefined ? undefined : session
  }

  doctorState(): StoreGuardState {
    if (this.protection === undefined) return { kind: 'off', detail: this.rootError ?? 'no store root' }
    return {
      kind: 'on',
      root: this.protection.root,
      refusals: this.refusals,
      last: this.last,
      checkErrors: this.checkErrors,
      inspectorRefusals: this.inspectorRefusals,
      effects: this.effects?.doctorState(),
    }
  }

  /** The settings page's counts. */
  counts(): { refused: number; undone: number } {
    return { refused: this.refusals, undone: this.effects?.doctorState().undone ?? 0 }
  }
}

function safeHome(): string | undefined {
  try {
    const home = process.env.HOME ?? homedir()
    return home === '' ? undefined : home
  } catch {
    return undefined
  }
}

/** The store root (and where a link points), its snapshots, the whale-persona folder (and a config file kept elsewhere). */
export function protectedFolders(root: string): {
  roots: string[]
  hostFolders: string[]
  lockFolders: string[]
  shownFrom: string
  storeMeta: string
  putBack: string
} {
  const real = (p: string) => (existsSync(p) ? realpathSync.native(p) : p)
  const snapshots = snapshotsDirOf(root)
  const env = { DSH_HOME: process.env.DSH_HOME, DSH_WHALE_CONFIG: process.env.DSH_WHALE_CONFIG }
  const whale = locate(env, safeHome() ?? '/', (f) => existsSync(f))
  // Both folders the whale-persona config may live in, whichever holds it now: a config made in the other one (the legacy
  // whale-suite/ wins when its config is a file) is the one the host reads from then on (decision 305).
  const whaleDirs = [true, false].map((legacy) => locate(env, safeHome() ?? '/', () => legacy).configDir)
  const putBack = putBackDirOf(root)
  const roots = new Set([root, real(root), snapshots, real(snapshots), putBack, real(putBack), ...whaleDirs.flatMap((d) => [d, real(d)])])
  if (!whale.configFile.startsWith(whale.configDir + '/')) roots.add(whale.configFile)
  // The store's own git repository (the sync's history, docs/decisions/070): its changes are the host's while a git run of the host's works there, as the snapshots' are while it takes or prunes one.
  const history = join(root, '.git')
  // Where the host takes its locks: the store's (write, engine, the night's lease) in 元/, the whale files' beside them.
  const lockFolders = [join(root, '元'), join(real(root), '元'), ...whaleDirs.flatMap((d) => [d, real(d)]), dirname(whale.configFile)]
  return {
    roots: [...roots],
    hostFolders: [snapshots, real(snapshots), history, join(real(root), '.git')],
    lockFolders,
    shownFrom: dirname(root),
    storeMeta: join(root, '元'),
    putBack,
  }
}
