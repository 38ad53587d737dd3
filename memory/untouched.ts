const UNTOUCHED = Symbol('cyrene.store-untouched')

/**
 * Marks an error thrown before its command made its first change to the store, so the message a
 * person reads can say that nothing was changed instead of "may have". Returns the error.
 */
export function markUntouched(error: unknown): unknown {
  if (error instanceof Error) Object.defineProperty(error, UNTOUCHED, { value: true })
  return error
}

/** Whether an error was thrown before its command changed the store (markUntouched). */
export function leftStoreUntouched(error: unknown): boolean {
  return error instanceof Error && (error as Error & { [UNTOUCHED]?: boolean })[UNTOUCHED] === true
}
