import { setImmediate as nextTurn } from 'node:timers/promises'

/** How long a loop may hold the event loop before it hands it back. */
const SLICE_MS = 8

/**
 * A pause for long loops: `await pause()` after each step hands the event loop
 * back (setImmediate: timers, I/O and the lock's refresh run) once `sliceMs`
 * have passed since the last time, and costs nothing otherwise. Whoever runs a
 * long index build in the host's thread keeps DSH answering (CONTRACT#never-stall).
 */
export function yielder(sliceMs = SLICE_MS): () => Promise<void> {
  let since = performance.now()
  return async () => {
    if (performance.now() - since < sliceMs) return
    await nextTurn()
    since = performance.now()
  }
}
