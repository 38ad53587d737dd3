import { homedir } from 'node:os'
import { Service, type Context } from '@deepseek-ai/cordis'
import type {} from '@deepseek-ai/dsh-tools'
import { resolveRoot } from '../memory/paths.ts'
import type { StoreGuardState } from './doctor.ts'
import { StoreProtection } from './guard-paths.ts'
import { checkToolCall, type Refusal } from './guard-tools.ts'

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

/**
 * The host-level guard (CONTRACT §2.4): registered once on the host plane with
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

  constructor(ctx: Context, config: { rootDir: string }) {
    super(ctx, 'cyreneStoreGuard')
    let protection: StoreProtection | undefined
    try {
      protection = new StoreProtection(resolveRoot({ rootDir: config.rootDir === '' ? undefined : config.rootDir, env: process.env }))
    } catch (error) {
      // No place for a store means no store to protect; the doctor says so.
      this.rootError = (error as Error).message
    }
    this.protection = protection
    if (protection !== undefined) ctx.effect(() => ctx.tools.guard((exec) => this.check(exec as unknown as Execution)), 'cyrene: store guard')
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
      // A guard that cannot decide refuses only a call that names the store (closed toward the data).
      this.checkErrors++
      const named = JSON.stringify(exec.arguments ?? '')
      if (!named.includes('cyrene-philia093-0') && !named.includes('元')) return undefined
      refused = {
        tool: exec.name,
        target: '(store)',
        why: 'check failed',
        message: `Refused by Cyrene's store guard: the call names the memory store and the guard could not check it (${(error as Error).message}). Nothing was changed; ask the person.`,
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
    return { kind: 'on', root: this.protection.root, refusals: this.refusals, last: this.last, checkErrors: this.checkErrors }
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
