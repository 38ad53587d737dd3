import { isAbsolute, resolve } from 'node:path'
import { readProgramText, readShellCommand, type ShellEnv, type ShellReading } from './shell.ts'
import { textCarriesBase, type Protection, type StoreProtection } from './paths.ts'

/**
 * One model tool call → refused or not (CONTRACT#store-guard). Knows the argument
 * shapes of DSH 0.1.0-rc.8's generic tools; every other tool (read, grep,
 * glob, web, the plugin's own memory tools, which go through the gate) is not
 * this guard's business.
 */

export interface ToolCall {
  name: string
  args: unknown
  /** The folder the tool resolves relative paths against; undefined when not known (a persistent shell). */
  cwd: string | undefined
  env: ShellEnv
}

export interface Refusal {
  tool: string
  /** The path (or text) that is protected. */
  target: string
  /** Why it is the person's, in one clause. */
  why: string
  /** The whole message the model reads. */
  message: string
}

/** Tools that write one file named by an argument, with the argument holding the new text. */
const FILE_TOOLS: Record<string, { path: string; text: string[]; readOnly?: (args: Record<string, unknown>) => boolean }> = {
  write: { path: 'file_path', text: ['content'] },
  edit: { path: 'file_path', text: ['new_string'] },
  str_replace_editor: { path: 'path', text: ['file_text', 'new_str'], readOnly: (a) => a.command === 'view' },
}

const SHELL_TOOLS = new Set(['bash'])
/** Tools whose argument is a program in another language: everything it names is checked. */
const PROGRAM_TOOLS: Record<string, { arg: string; what: string }> = {
  pwsh: { arg: 'command', what: 'a PowerShell command (not read by the guard beyond the paths it names)' },
  run_code: { arg: 'code', what: 'a run_code program' },
  workflow: { arg: 'script', what: 'a workflow script' },
}
/** Patch-shaped tools (none in DSH rc.8; other plugins may add one): the files a patch names are written. */
const PATCH_TOOL = /^(apply_?patch|patch)$/i

export function checkToolCall(call: ToolCall, store: StoreProtection): Refusal | undefined {
  const args = (typeof call.args === 'object' && call.args !== null ? call.args : {}) as Record<string, unknown>
  const file = FILE_TOOLS[call.name]
  if (file !== undefined) return checkFileTool(call, args, file, store)
  if (SHELL_TOOLS.has(call.name) && typeof args.command === 'string') {
    const cwd = shellCwd(call.cwd, args.workdir)
    return verdict(call.name, readShellCommand(args.command, cwd, call.env), store, args.command)
  }
  const program = PROGRAM_TOOLS[call.name]
  if (program !== undefined && typeof args[program.arg] === 'string') {
    const text = args[program.arg] as string
    return verdict(call.name, readProgramText(text, call.cwd, call.env, program.what), store, text)
  }
  if (PATCH_TOOL.test(call.name)) {
    const text = Object.values(args).filter((v): v is string => typeof v === 'string')
    for (const t of text) {
      for (const path of patchedFiles(t)) {
        const found = store.classify(absolute(path, call.cwd))
        if (found !== undefined) return refusal(call.name, found)
      }
    }
  }
  return undefined
}

function checkFileTool(call: ToolCall, args: Record<string, unknown>, tool: (typeof FILE_TOOLS)[string], store: StoreProtection): Refusal | undefined {
  if (tool.readOnly?.(args) === true) return undefined
  const raw = args[tool.path]
  if (typeof raw !== 'string' || raw.trim() === '') return undefined
  // DSH's file tools resolve against the session folder and do not expand `~`; a `~/…` is checked both ways.
  const candidates = [absolute(raw, call.cwd)]
  if ((raw === '~' || raw.startsWith('~/')) && call.env.home !== undefined) candidates.push(call.env.home + raw.slice(1))
  for (const path of candidates) {
    const found = store.classify(path)
    if (found !== undefined) return refusal(call.name, found)
    const text = tool.text.map((k) => args[k]).filter((v): v is string => typeof v === 'string')
    if (store.inDays(path) && text.some(textCarriesBase))
      return refusal(call.name, { kind: 'base-day', path: store.canonical(path) }, 'the new text carries a `base: true` entry, which only the person may write')
  }
  return undefined
}

function shellCwd(sessionCwd: string | undefined, workdir: unknown): string | undefined {
  if (typeof workdir !== 'string' || workdir === '') return sessionCwd
  if (isAbsolute(workdir)) return workdir
  return sessionCwd === undefined ? undefined : resolve(sessionCwd, workdir)
}

function absolute(path: string, cwd: string | undefined): string {
  if (isAbsolute(path)) return path
  return `${cwd ?? process.cwd()}/${path}`
}

/** Decide on what the shell reader found: a protected write, or an unsure command that names the store. */
function verdict(tool: string, reading: ShellReading, store: StoreProtection, source: string): Refusal | undefined {
  const person = reading.asPerson[0]
  if (person !== undefined) return personCliRefusal(tool, person)
  let runtimeWrite = false
  for (const ref of reading.writes) {
    const found = store.classifyRef(ref)
    if (found !== undefined) return refusal(tool, found)
    if (ref.abs === undefined) runtimeWrite = true
  }
  // A file written with `"base": true` in the command's text, into a day file.
  if (textCarriesBase(source)) {
    for (const ref of reading.writes) {
      if (ref.abs !== undefined && store.inDays(ref.abs))
        return refusal(tool, { kind: 'base-day', path: store.canonical(ref.abs) }, 'the command writes a `base: true` entry, which only the person may write')
    }
  }
  if (reading.unsureWhy.length > 0) {
    const why = reading.unsureWhy[0]!
    for (const ref of reading.unsureMentions) {
      // What an unsure command names counts by its name too: program text often builds the path (`HOME + '/.dsh/…'`).
      const found = store.classifyRef(ref) ?? store.classifyText(ref.text)
      if (found !== undefined) return refusal(tool, found, undefined, why)
    }
    for (const cwd of reading.unsureCwds) {
      if (cwd.abs !== undefined ? store.insideStore(cwd.abs) : store.classifyText(cwd.text) !== undefined)
        return refusal(tool, { kind: 'holds', path: cwd.abs ?? cwd.text, what: 'the memory store (the command runs a program inside it)' }, undefined, why)
    }
  }
  if (runtimeWrite) {
    for (const ref of reading.scriptMentions) {
      const found = store.classifyRef(ref)
      if (found !== undefined) return refusal(tool, found, undefined, 'a path only known when the command runs')
    }
  }
  return undefined
}

/** The `cyrene` command line writes as the person: run by the model it would put words in the person's mouth. */
function personCliRefusal(tool: string, command: string): Refusal {
  const why =
    'the cyrene command line writes as the person (person-only entries, base entries, settings, restores), so the model may not run it to change the store'
  const message =
    `Refused by Cyrene's store guard: \`${tool}\` would run \`${command.slice(0, 120)}\` — ${why}. Nothing was run or changed, ` +
    'and wider sandbox access or approval does not change this. Reading is fine (cyrene memory list|show|search|recall|log|check, ' +
    'cyrene doctor). Instead: to remember something, use memory_write (in the 昔涟 presets); for anything else, tell the person ' +
    'the command and let them run it.'
  return { tool, target: command.slice(0, 200), why, message }
}

/** Files a unified or `*** Update File:` style patch names. */
function patchedFiles(text: string): string[] {
  const out: string[] = []
  for (const line of text.split(/\r?\n/)) {
    const m = /^(?:\*\*\* (?:Update|Add|Delete) File: |\+\+\+ |--- )(?:[ab]\/)?(.+?)\s*$/.exec(line)
    if (m !== null && m[1] !== '/dev/null') out.push(m[1]!)
  }
  return out
}

const WHY: Record<Protection['kind'], string> = {
  meta: '元/ holds the memory store’s own records (settings, volumes, audit log, locks); only the person and the plugin itself change them',
  anchor: '锚/ holds the four anchors, whose cores only the person writes (add a dated section with memory_anchor instead)',
  worldbook: '世界书/ is the person’s worldbook: its entries reach every later session, so only the person writes them',
  'base-day': 'this day file holds a `base: true` entry, which only the person may write or change',
  holds: '',
  named: 'it names the memory store (<DSH_HOME>/cyrene-philia093-0/), whose 元/ and base entries only the person may change',
}

function refusal(tool: string, found: Protection, whyOverride?: string, unsureWhy?: string): Refusal {
  const why = whyOverride ?? (found.kind === 'holds' ? `it is ${found.what}, which holds 元/ or base entries only the person may change` : WHY[found.kind])
  const how =
    unsureWhy === undefined
      ? ''
      : ` The guard cannot follow ${unsureWhy}, so a command that names a protected path that way is refused; name only files outside 元/ and base day files.`
  const message =
    `Refused by Cyrene's store guard: \`${tool}\` would change ${found.path} — ${why}. Nothing was run or changed, ` +
    `and wider sandbox access or approval does not change this.${how} Reading these files is fine. Instead: to remember ` +
    'something, use memory_write (in the 昔涟 presets); to change a setting or a base entry, tell the person what you would ' +
    'change and let them do it (they can edit the file or use the `cyrene` command line).'
  return { tool, target: found.path, why, message }
}
