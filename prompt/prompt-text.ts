/**
 * DSH interpolates every section and context strictly: a `{{name}}` group must
 * name a registered variable, and `{{…}}` that is not a simple name fails the
 * whole turn. These helpers mirror that grammar (dsh-system-prompt 0.1.0-rc.8)
 * so the build can refuse a bad persona and the runtime can make any text it
 * injects inert.
 */
const GROUP_AT = /^\{\{([^{}]*)\}\}/
const VARIABLE_NAME = /^[a-z][a-z0-9_]*$/

export interface PromptReference {
  /** Offset of the opening `{{`. */
  at: number
  name: string
  /** False when DSH would reject the group as malformed. */
  wellFormed: boolean
}

/** Every `{{…}}` group DSH would try to resolve in `text`, in order. */
export function promptReferences(text: string): PromptReference[] {
  const found: PromptReference[] = []
  let from = 0
  for (let open = text.indexOf('{{', from); open >= 0; open = text.indexOf('{{', from)) {
    const group = GROUP_AT.exec(text.slice(open))
    if (group === null) {
      if (text.indexOf('}}', open + 2) >= 0) found.push({ at: open, name: text.slice(open + 2, open + 18), wellFormed: false })
      from = open + 2
      continue
    }
    const name = group[1] ?? ''
    found.push({ at: open, name, wellFormed: VARIABLE_NAME.test(name) })
    from = open + group[0].length
  }
  return found
}

/** 1-based line number of an offset, for messages a person can act on. */
export function lineOf(text: string, offset: number): number {
  let line = 1
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++
  return line
}

/**
 * Make text safe to place in a section or context: no `{{` or `}}` survives,
 * so nothing in it is read as a variable. A zero-width joiner between the two
 * braces keeps the text readable for the model.
 */
export function inertBraces(text: string): string {
  return text.replace(/\{(?=\{)/g, '{\u200d').replace(/\}(?=\})/g, '}\u200d')
}
