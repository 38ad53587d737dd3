import { loadRenderInput } from '../whale/files.ts'
import { renderSegments, type RenderedSegments } from '../whale/render.ts'
import { DEFAULT_LANG, t, type Lang } from '../i18n/index.ts'
import type { CliIO } from './io.ts'
import type { CyreneCommand } from './command.ts'
import { writeJson } from './terminal.ts'
import { help } from './help-text.ts'

interface RenderOptions {
  config?: string
  model?: string
  cwd?: string
  capture?: true
  json?: true
}

export function addRender(whale: CyreneCommand): void {
  whale
    .command('render')
    .description(help(whale.io, 'cli.whale.render'))
    .option('--config <FILE>', help(whale.io, 'cli.whale.opt.config'))
    .option('--model <ID>', help(whale.io, 'cli.whale.render.model'))
    .option('--cwd <DIR>', help(whale.io, 'cli.whale.render.cwd'))
    .option('--capture', help(whale.io, 'cli.whale.render.capture'))
    .option('--json', help(whale.io, 'cli.whale.opt.json'))
    .act<RenderOptions>(async (o) => render(o, whale.io))
    .jsonRefusals()
}

function render(values: RenderOptions, io: CliIO): number {
  const input = loadRenderInput(
    { env: io.env, cwd: io.cwd },
    {
      ...(values.config !== undefined ? { configOverride: values.config } : {}),
      model: values.model ?? '',
      hostCwd: values.cwd ?? io.cwd,
      sessionCapture: values.capture === true,
    },
  )
  const rendered = renderSegments(input)
  if (values.json === true) {
    writeJson(io, rendered)
  } else {
    io.stdout(preview(rendered, io.lang ?? DEFAULT_LANG))
  }
  return 0
}

/** The zh placeholder is the self-check wording of spec §9, quoted there; en says the same. */
function preview(r: RenderedSegments, lang: Lang): string {
  const section = (name: string, text: string): string => `=== ${name} ===\n${text || t('cli.whale.empty', lang)}\n`
  const parts = r.measure.parts.map((p) => `${p.key} ${p.chars}`).join(' · ')
  const b = r.measure.budget
  const budget =
    b.enabled && b.max > 0
      ? t('whale.out.render.budget', lang, { max: b.max, over: b.over ? t('whale.out.render.over', lang) : '' })
      : t('whale.out.render.budgetOff', lang)
  // The segment names and the part keys are the format's own (spec §9), the same in every language.
  return (
    section('deployment:persona-prefix', r.prefix) +
    section('whale:thinking-language', r.thinking) +
    section('deployment:persona-suffix', r.suffix) +
    t('whale.out.render.footer', lang, { parts, total: r.measure.total, budget, capture: t(r.captureActive ? 'whale.out.on' : 'whale.out.off', lang) }) +
    '\n'
  )
}
