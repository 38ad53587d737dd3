import type { cliHelpWhaleZh } from '../zh/cli-help-whale.ts'

/** `cyrene whale --help` and its sub-commands' help, in English. */
export const cliHelpWhaleEn: { readonly [K in keyof typeof cliHelpWhaleZh]: string } = {
  'cli.whale': 'whale-persona v1 files on the command line',
  'cli.whale.files': `
Files: DSH_WHALE_CONFIG names the config file; otherwise $DSH_HOME/whale-persona/config.json
(or whale-suite/ when that legacy config exists). DSH_HOME defaults to ~/.dsh.
Relative paths resolve against the working directory.`,
  'cli.whale.opt.json': 'machine output; a refusal too is one JSON object {ok: false, error}',
  'cli.whale.opt.config': 'the config file, instead of DSH_WHALE_CONFIG or the default',
  'cli.whale.opt.model': 'the model the message goes to',
  'cli.whale.render': 'the three segments a DSH row would inject (the §9 self-check)',
  'cli.whale.render.model': 'the model to render for',
  'cli.whale.render.cwd': 'the working directory the host reports',
  'cli.whale.render.capture': 'as in a session with memory capture on',
  'cli.whale.presets': 'whale-persona presets: list, show, apply, save, delete; import and export cards',
  'cli.whale.presets.tavern': 'as a SillyTavern v2 card',
  'cli.whale.presets.force': 'replace what is already there',
  'cli.whale.presets.dryRun': 'check the card, save nothing',
  'cli.whale.presets.id': 'save it under this id',
  'cli.whale.presets.list': 'the saved presets',
  'cli.whale.presets.show': 'one preset, as its file holds it',
  'cli.whale.presets.apply': 'make a preset the live persona (the previous one is saved as "autosave")',
  'cli.whale.presets.save': 'save the live persona as a preset',
  'cli.whale.presets.delete': 'delete a saved preset',
  'cli.whale.presets.dir': 'the folder the presets are kept in',
  'cli.whale.presets.import':
    'import a card: a whale preset, SillyTavern v1/v2/v3 JSON, a PNG or CharX card, a text-generation-webui YAML character, a Backyard AI archive (.byaf) (one with nothing to take is refused, exit 2)',
  'cli.whale.presets.export':
    "a preset as a card, to standard output or OUT (cyrene:chat and cyrene:work export Cyrene's own persona, without memory; never into the memory store, even with --force)",
  'cli.whale.inbox': 'the memory inbox: proposed entries wait here for a person',
  'cli.whale.inbox.source': 'who confirms, as the sink lines record it (default {source})',
  'cli.whale.inbox.list': 'the entries, numbered, as replayed from the inbox file',
  'cli.whale.inbox.confirm': 'confirm entries: kinds with a sink route are written there',
  'cli.whale.inbox.reject': 'reject entries (one line each is appended to the inbox file)',
  'cli.whale.inbox.drop': 'drop entries (one line each is appended to the inbox file)',
  'cli.whale.inbox.log': 'the raw lines of the inbox file, numbered (the audit view)',
  'cli.whale.conformance': 'run a golden-case folder (its manifest.json) against this implementation or another one',
  'cli.whale.conformance.dir': 'the folder holding manifest.json',
  'cli.whale.conformance.case': 'only this case (repeatable)',
  'cli.whale.conformance.command': 'run PROGRAM <whale argv…> instead of this cyrene',
  'cli.whale.conformance.commandArg': 'an argument PROGRAM takes before the whale argv (repeatable)',
  'cli.whale.reflex': 'the reflex rules',
  'cli.whale.reflex.check': 'a dry run: which rule (if any) a message would trigger, and the instruction it would add',
  'cli.whale.reflex.text': 'the message',
}
