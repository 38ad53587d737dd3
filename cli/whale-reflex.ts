import { loadReflexText } from '../whale/files.ts'
import { ledgerRecord, matchReflex, parseReflexRules, reflexInstruction } from '../whale/reflex.ts'
import { saidRefusal, type CliIO } from './io.ts'
import type { CyreneCommand } from './command.ts'
import { writeJson } from './terminal.ts'
import { help } from './help-text.ts'
import { DEFAULT_LANG, t } from '../i18n/index.ts'

interface ReflexOptions {
  model?: string
  json?: true
}

export function addReflex(whale: CyreneCommand): void {
  whale
    .command('reflex')
    .description(help(whale.io, 'cli.whale.reflex'))
    .jsonRefusals()
    .command('check')
    .description(help(whale.io, 'cli.whale.reflex.check'))
    .argument('<text...>', help(whale.io, 'cli.whale.reflex.text'))
    .option('--model <ID>', help(whale.io, 'cli.whale.opt.model'))
    .option('--json', help(whale.io, 'cli.whale.opt.json'))
    .act<ReflexOptions>(async (o, words, command) => check(o, words, command, whale.io))
    .jsonRefusals()
}

function check(values: ReflexOptions, words: string[], command: CyreneCommand, io: CliIO): number {
  const L = io.lang ?? DEFAULT_LANG
  if (!words.length) throw saidRefusal((lang) => t('whale.out.usage', lang, { usage: `${command.path()} ${command.usage()}` }), L)
  const loaded = loadReflexText({ env: io.env, cwd: io.cwd })
  const rules = loaded.off ? { enabled: false, dryRun: false, rules: [] } : parseReflexRules(loaded.text)
  const ctx = { text: words.join(' '), model: values.model ?? '' }
  const hit = matchReflex(rules, ctx)
  if (values.json === true) {
    writeJson(io, {
      file: loaded.file,
      off: loaded.off,
      rules: rules.rules.length,
      hit: hit && {
        id: hit.rule.id,
        channel: hit.channel,
        soft: hit.soft,
        instruction: reflexInstruction(hit),
        ledger: ledgerRecord(hit, ctx, new Date().toISOString(), true),
      },
    })
  } else if (hit === null) {
    io.stdout(`${t('whale.out.reflex.none', L, { n: rules.rules.length, file: loaded.file, off: loaded.off ? t('whale.out.reflex.off', L) : '' })}\n`)
  } else {
    // The instruction is the rule's own text, for the model: shown as the rule file has it.
    io.stdout(
      `${t('whale.out.reflex.hit', L, { id: hit.rule.id, channel: hit.channel, soft: hit.soft ? t('whale.out.reflex.soft', L) : '', instruction: reflexInstruction(hit) })}\n`,
    )
  }
  return 0
}
