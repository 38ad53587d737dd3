/** The lexer of the store guard's shell reading: words with their quoted, variable and run-time parts, operators, redirections. */

type Part = { kind: 'lit'; text: string; quoted: boolean } | { kind: 'var'; name: string } | { kind: 'dyn' } | { kind: 'tilde' }

export interface Word {
  parts: Part[]
}

export type Token = { t: 'word'; w: Word } | { t: 'op'; op: string } | { t: 'redir'; op: string; body?: string }

export interface Lexed {
  tokens: Token[]
  /** Inner scripts of `$(…)`, backticks and `<(…)` / `>(…)`, read as commands of their own. */
  subs: string[]
}

const OPS = ['&&', '||', ';;', '|&', '&', '|', ';', '(', ')', '\n']
const REDIRS = ['&>>', '&>', '<<<', '<<-', '<<', '<>', '>>', '>|', '>&', '<&', '>', '<']

/** Finds the end of a `$(…)`-like group starting after its opening bracket; quotes and nesting respected. */
function closeOf(src: string, from: number, open: string, close: string): number {
  let depth = 1
  for (let i = from; i < src.length; i++) {
    const c = src[i]
    if (c === '\\') {
      i++
      continue
    }
    if (c === "'") {
      const j = src.indexOf("'", i + 1)
      i = j < 0 ? src.length : j
      continue
    }
    if (c === '"') {
      for (i++; i < src.length && src[i] !== '"'; i++) if (src[i] === '\\') i++
      continue
    }
    if (c === open) depth++
    else if (c === close && --depth === 0) return i
  }
  return src.length
}

export function lex(src: string): Lexed {
  const tokens: Token[] = []
  const subs: string[] = []
  const pendingHeredocs: { delim: string; strip: boolean; token: Token & { t: 'redir' } }[] = []
  let parts: Part[] | undefined
  let i = 0
  const lit = (text: string, quoted: boolean) => {
    parts ??= []
    const last = parts[parts.length - 1]
    if (last?.kind === 'lit' && last.quoted === quoted) last.text += text
    else parts.push({ kind: 'lit', text, quoted })
  }
  const push = (p: Part) => {
    parts ??= []
    parts.push(p)
  }
  const endWord = () => {
    if (parts !== undefined) tokens.push({ t: 'word', w: { parts } })
    parts = undefined
  }
  /** `$…` at src[i] (i points at `$`); returns the index after it. */
  const dollar = (at: number): number => {
    const next = src[at + 1]
    if (next === '(') {
      if (src[at + 2] === '(') {
        const end = closeOf(src, at + 3, '(', ')')
        push({ kind: 'dyn' })
        return Math.min(src.length, end + 2)
      }
      const end = closeOf(src, at + 2, '(', ')')
      subs.push(src.slice(at + 2, end))
      push({ kind: 'dyn' })
      return end + 1
    }
    if (next === '{') {
      const end = closeOf(src, at + 2, '{', '}')
      const inner = src.slice(at + 2, end)
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(inner)) push({ kind: 'var', name: inner })
      else push({ kind: 'dyn' })
      return end + 1
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(at + 1))
    if (name !== null) {
      push({ kind: 'var', name: name[0] })
      return at + 1 + name[0].length
    }
    if (next !== undefined && /[0-9@*#?$!-]/.test(next)) {
      push({ kind: 'dyn' })
      return at + 2
    }
    lit('$', false)
    return at + 1
  }

  while (i < src.length) {
    const c = src[i]!
    if (c === '\\') {
      if (src[i + 1] === '\n') i += 2
      else {
        lit(src[i + 1] ?? '', true)
        i += 2
      }
      continue
    }
    if (c === "'") {
      const j = src.indexOf("'", i + 1)
      lit(src.slice(i + 1, j < 0 ? src.length : j), true)
      i = j < 0 ? src.length : j + 1
      continue
    }
    if (c === '$' && src[i + 1] === "'") {
      // ANSI-C quoting: escapes are kept as written; a path built from escapes reads as literal text.
      let j = i + 2
      let text = ''
      for (; j < src.length && src[j] !== "'"; j++) {
        if (src[j] === '\\') text += src[++j] ?? ''
        else text += src[j]
      }
      lit(text, true)
      i = j + 1
      continue
    }
    if (c === '"') {
      let j = i + 1
      let buf = ''
      for (; j < src.length && src[j] !== '"'; j++) {
        const d = src[j]!
        if (d === '\\' && /["\\$`\n]/.test(src[j + 1] ?? '')) {
          buf += src[++j]
        } else if (d === '$' || d === '`') {
          if (buf !== '') lit(buf, true)
          buf = ''
          if (d === '$') j = dollar(j) - 1
          else {
            const end = src.indexOf('`', j + 1)
            subs.push(src.slice(j + 1, end < 0 ? src.length : end))
            push({ kind: 'dyn' })
            j = end < 0 ? src.length : end
          }
        } else buf += d
      }
      if (buf !== '' || parts === undefined) lit(buf, true)
      i = j + 1
      continue
    }
    if (c === '`') {
      const end = src.indexOf('`', i + 1)
      subs.push(src.slice(i + 1, end < 0 ? src.length : end))
      push({ kind: 'dyn' })
      i = end < 0 ? src.length : end + 1
      continue
    }
    if (c === '$') {
      i = dollar(i)
      continue
    }
    if ((c === '<' || c === '>') && src[i + 1] === '(') {
      endWord()
      const end = closeOf(src, i + 2, '(', ')')
      subs.push(src.slice(i + 2, end))
      tokens.push({ t: 'word', w: { parts: [{ kind: 'dyn' }] } })
      i = end + 1
      continue
    }
    if (c === '#' && parts === undefined) {
      const nl = src.indexOf('\n', i)
      i = nl < 0 ? src.length : nl
      continue
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      endWord()
      i++
      continue
    }
    // `~` at the start of a word, or right after `NAME=` (bash expands both).
    const afterAssign = parts?.length === 1 && parts[0]!.kind === 'lit' && !parts[0]!.quoted && /^[A-Za-z_][A-Za-z0-9_]*=$/.test(parts[0]!.text)
    if (c === '~' && (parts === undefined || afterAssign) && (src[i + 1] === undefined || /[/\s;&|)]/.test(src[i + 1]!))) {
      push({ kind: 'tilde' })
      i++
      continue
    }
    const redir = REDIRS.find((r) => src.startsWith(r, i))
    if (redir !== undefined) {
      // `2>` / `10>`: a word of digits right before a redirection is its descriptor, not an argument.
      if (parts !== undefined && parts.every((p) => p.kind === 'lit' && !p.quoted && /^\d+$/.test(p.text))) parts = undefined
      endWord()
      const token: Token & { t: 'redir' } = { t: 'redir', op: redir }
      tokens.push(token)
      i += redir.length
      if (redir === '<<' || redir === '<<-') {
        const m = /^[ \t]*(['"]?)([^\s'";&|<>()]+)\1/.exec(src.slice(i))
        if (m !== null) {
          pendingHeredocs.push({ delim: m[2]!, strip: redir === '<<-', token })
          i += m[0].length
        }
      }
      continue
    }
    const op = OPS.find((o) => src.startsWith(o, i))
    if (op !== undefined) {
      endWord()
      tokens.push({ t: 'op', op })
      i += op.length
      if (op === '\n' && pendingHeredocs.length > 0) {
        for (const h of pendingHeredocs.splice(0)) {
          const lines: string[] = []
          while (i < src.length) {
            const nl = src.indexOf('\n', i)
            const line = src.slice(i, nl < 0 ? src.length : nl)
            i = nl < 0 ? src.length : nl + 1
            if ((h.strip ? line.replace(/^\t+/, '') : line) === h.delim) break
            lines.push(line)
          }
          h.token.body = lines.join('\n')
        }
      }
      continue
    }
    lit(c, false)
    i++
  }
  endWord()
  return { tokens, subs }
}
