/**
 * Text bound for a terminal. Stored text may come from a hand-edited file, so
 * a C0 or C1 control character (ESC starts colour codes, cursor moves, title
 * changes; CSI U+009B does the same on 8-bit terminals) is shown as a visible
 * `\u001b` escape instead of being obeyed. Tab and newline stay as they are.
 */
// eslint-disable-next-line no-control-regex
const CONTROL_RE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g

export function visibleControls(text: string): string {
  return text.replace(CONTROL_RE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/**
 * JSON for standard output: JSON.stringify already escapes C0 controls, but
 * writes DEL and C1 controls raw; escaping them too keeps the same JSON value.
 */
export function safeJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** Plain JSON for the whale commands: their output is compared byte for byte with other whale-persona implementations. */
export function writeJson(io: { stdout: (text: string) => void }, value: unknown): void {
  io.stdout(JSON.stringify(value, null, 2) + '\n')
}
