import { loadRenderInput } from '../whale/files.ts'
import { renderSegments, type RenderedSegments } from '../whale/render.ts'
import type { SubCommand } from './io.ts'
import { parseOptions, writeJson } from './whale-args.ts'

const USAGE = 'cyrene whale render [--config FILE] [--model ID] [--cwd DIR] [--capture] [--json]'

// The self-check wording of spec §9, quoted there.
const EMPTY_NOTE = '(空 —— 该段不会出现在系统提示词里)'

export const renderCommand: SubCommand = async (argv, io) => {
  const { values } = parseOptions(argv, {
    config: { type: 'string' },
    model: { type: 'string' },
    cwd: { type: 'string' },
    capture: { type: 'boolean' },
    json: { type: 'boolean' },
  }, USAGE)
  const input = loadRenderInput({ env: io.env, cwd: io.cwd }, {
    ...(values.config !== undefined ? { configOverride: values.config } : {}),
    model: values.model ?? '',
    hostCwd: values.cwd ?? io.cwd,
    sessionCapture: values.capture === true,
  })
  const rendered = renderSegments(input)
  if (values.json === true) {
    writeJson(io, rendered)
  } else {
    io.stdout(preview(rendered))
  }
  return 0
}

function preview(r: RenderedSegments): string {
  const section = (name: string, text: string): string => `=== ${name} ===\n${text || EMPTY_NOTE}\n`
  const parts = r.measure.parts.map((p) => `${p.key} ${p.chars}`).join(' · ')
  const b = r.measure.budget
  const budget = b.enabled && b.max > 0 ? `budget ${b.max}${b.over ? ' (over)' : ''}` : 'budget off'
  return section('deployment:persona-prefix', r.prefix)
    + section('whale:thinking-language', r.thinking)
    + section('deployment:persona-suffix', r.suffix)
    + `--- ${parts} · total ${r.measure.total} chars · ${budget} · capture ${r.captureActive ? 'on' : 'off'}\n`
}
