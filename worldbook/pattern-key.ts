import { RE2JS } from 're2js'

/**
 * A key written `/source/flags` is a regular expression, as SillyTavern reads World Info keys: it is
 * tested against the scanned text as it is (no folding), and the entry's case and whole-word settings
 * do not apply to it. A key of that shape that JavaScript itself refuses as a pattern is plain text
 * there, and so here.
 *
 * Patterns come from files the person downloads (public cards and lorebooks), so they run on RE2
 * (`re2js`, linear time in the text) and never on the host's own backtracking engine: a pattern built to
 * stall matching cannot hold DSH's thread. RE2 has no look-ahead and no back-references; a pattern that
 * needs them is named (`unsupported`) and never matches. Look-behinds without captures run.
 */

/** SillyTavern's own test for a pattern key. */
const PATTERN_KEY_RE = /^\/([\w\W]+?)\/([gimsuy]*)$/

/** Longer keys are plain text: a pattern is a few dozen characters, and its compiled program grows with it. */
const MAX_PATTERN_CHARS = 1000

export type PatternKey = { kind: 'pattern'; test: (text: string) => boolean } | { kind: 'unsupported'; why: string }

const compiled = new Map<string, PatternKey | undefined>()
/** Keys live as long as the worldbook's files; a bound keeps a changing library from growing the map without end. */
const COMPILED_KEPT = 4096

/** What `key` is as a pattern: undefined when it is plain text. */
export function patternKey(key: string): PatternKey | undefined {
  if (compiled.has(key)) return compiled.get(key)
  if (compiled.size >= COMPILED_KEPT) compiled.clear()
  const made = compilePatternKey(key)
  compiled.set(key, made)
  return made
}

function compilePatternKey(key: string): PatternKey | undefined {
  const m = PATTERN_KEY_RE.exec(key)
  if (m === null || key.length > MAX_PATTERN_CHARS) return undefined
  const [, source, flags] = m as unknown as [string, string, string]
  if (!javaScriptTakes(source, flags)) return undefined
  let options = 0
  if (flags.includes('i')) options |= RE2JS.CASE_INSENSITIVE
  if (flags.includes('m')) options |= RE2JS.MULTILINE
  if (flags.includes('s')) options |= RE2JS.DOTALL
  // Sticky: JavaScript's first test of a fresh pattern starts at 0, so a match must start there.
  const anchored = flags.includes('y') ? `\\A(?:${re2Source(source)})` : re2Source(source)
  try {
    const pattern = RE2JS.compile(anchored, options | RE2JS.LOOKBEHINDS)
    return { kind: 'pattern', test: (text) => pattern.matcher(text).find() }
  } catch (error) {
    return { kind: 'unsupported', why: (error as Error).message.replace(/^error parsing regexp: /, '') }
  }
}

/** Only built, never run: JavaScript's verdict on the syntax, which decides whether SillyTavern reads a pattern. */
function javaScriptTakes(source: string, flags: string): boolean {
  try {
    return new RegExp(source, flags) instanceof RegExp
  } catch {
    return false
  }
}

/** JavaScript escapes RE2 writes otherwise: `\uXXXX` and `\u{X…}` as `\x{…}`. An escaped backslash stays one. */
function re2Source(source: string): string {
  return source.replace(/\\(\\|u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4}))/g, (whole, _e: string, braced?: string, four?: string) =>
    braced !== undefined ? `\\x{${braced}}` : four !== undefined ? `\\x{${four}}` : whole,
  )
}
