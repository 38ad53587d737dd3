import { loadReflexText } from '../whale/files.ts'
import { ledgerRecord, matchReflex, parseReflexRules, reflexInstruction } from '../whale/reflex.ts'
import { CliError, type SubCommand } from './io.ts'
import { parseOptions, writeJson } from './whale-args.ts'

const USAGE = 'cyrene whale reflex check <text…> [--model ID] [--json]'

/** A dry run of the reflex layer: which rule (if any) a message would trigger, and the instruction it would add. */
export const reflexCommand: SubCommand = async (argv, io) => {
  const { values, positionals } = parseOptions(argv, { model: { type: 'string' }, json: { type: 'boolean' } }, USAGE)
  const [action, ...words] = positionals
  if (action !== 'check' || !words.length) throw new CliError(`Usage: ${USAGE}`)
  const loaded = loadReflexText({ env: io.env, cwd: io.cwd })
  const rules = loaded.off ? { enabled: false, dryRun: false, rules: [] } : parseReflexRules(loaded.text)
  const ctx = { text: words.join(' '), model: values.model ?? '' }
  const hit = matchReflex(rules, ctx)
  if (values.json === true) {
    writeJson(io, { file: loaded.file, off: loaded.off, rules: rules.rules.length, hit: hit && { id: hit.rule.id, channel: hit.channel, soft: hit.soft, instruction: reflexInstruction(hit), ledger: ledgerRecord(hit, ctx, new Date().toISOString(), true) } })
  } else if (hit === null) {
    io.stdout(`No rule matches (${rules.rules.length} rule(s) in ${loaded.file}${loaded.off ? ', switched off by DSH_REFLEX_OFF=1' : ''}).\n`)
  } else {
    io.stdout(`Rule "${hit.rule.id}" matches via ${hit.channel}${hit.soft ? ' (soft)' : ''}. It would add:\n${reflexInstruction(hit)}\n`)
  }
  return 0
}
