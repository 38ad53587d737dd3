import { join } from 'node:path'
import { acquire, describeHolder, lockState, LockBusyError, type HeldLock, type LockOwner } from '../durable/lock.ts'
import { LAYOUT } from './paths.ts'
import type { StoreCore } from './store-core.ts'

/**
 * One engine per DSH_HOME (CONTRACT#one-engine): the store object that serves as
 * the running engine holds 元/engine.lock for as long as it is open. The
 * command line does not take it; `restore` does, while it runs.
 */
const ENGINE_LOCK = 'engine.lock'

/** The engine lock in particular is held: another engine serves this DSH_HOME. */
export class EngineBusyError extends LockBusyError {
  constructor(message: string, owner: LockOwner | undefined, alive?: boolean, path?: string) {
    super(message, owner, alive, path)
    this.name = 'EngineBusyError'
  }
}

/** The engine lock each store object holds, while it holds one. */
const held = new WeakMap<StoreCore, HeldLock>()

function engineLockPath(store: StoreCore): string {
  return join(store.root, LAYOUT.meta, ENGINE_LOCK)
}

/** Holds 元/engine.lock for `store` (once; a second claim by the same store does nothing). */
export async function claimEngine(store: StoreCore, purpose = 'engine'): Promise<void> {
  if (held.has(store)) return
  try {
    held.set(store, await acquire({ path: engineLockPath(store), purpose, staleMs: store.lockStaleMs ?? 10_000, waitMs: 0 }))
  } catch (e) {
    if (e instanceof LockBusyError) {
      const o = e.owner
      const paused =
        e.alive === true ? ' If that DSH is stopped (Ctrl-Z), resume it and close it: a live engine keeps its lock, however long it is paused.' : ''
      throw new EngineBusyError(
        `another memory engine is already open for ${store.root}${o === undefined ? '' : ` (${describeHolder(o, e.alive)})`}. Only one engine may serve a DSH_HOME: close the other DSH, or disable one of the plugins.${paused}`,
        o,
        e.alive,
        engineLockPath(store),
      )
    }
    throw e
  }
}

/** Lets go of the engine lock if `store` holds it. */
export async function releaseEngine(store: StoreCore): Promise<void> {
  const lock = held.get(store)
  held.delete(store)
  await lock?.release()
}

/** Who holds the engine lock, and whether it is `store`. */
export async function engineStatus(store: StoreCore): Promise<{ held: boolean; owner?: LockOwner | undefined; alive?: boolean; mine: boolean }> {
  const s = await lockState(engineLockPath(store))
  return { ...s, mine: held.has(store) }
}
