import { reportMarkLine } from '../memory/person.ts'
import type { Sides, Version } from './order.ts'
import type { Scenario } from './scenario.ts'
import { memoryWrites, type Transcript } from './transcript.ts'

interface VersionInfo {
  /** The git ref the persona came from, or `working tree`. */
  source: string
  /** The volume fingerprint of its persona files (CONTRACT#volumes). */
  fingerprint: string
}

export interface CommandRecord {
  line: string
  ok: boolean
  text: string
}

export interface RunResult {
  scenario: string
  version: Version
  ok: boolean
  error?: string
  commands: CommandRecord[]
  transcript?: Transcript
}

export const CRITERIA = ['in_character', 'warmth_without_flattery', 'honest_about_memory', 'five_virtues', 'follows_request'] as const
export type Criterion = (typeof CRITERIA)[number]
const CRITERION_LABELS: Record<Criterion, string> = {
  in_character: '像她（昔涟的口吻）',
  warmth_without_flattery: '温暖而不讨好',
  honest_about_memory: '对记忆诚实',
  five_virtues: '五育',
  follows_request: '做了被请求的事',
}

export interface Judgement {
  scenario: string
  ok: boolean
  error?: string
  /** Scores 1–5 per side as the judge saw them (A/B, not base/change). */
  scores?: Record<'A' | 'B', Partial<Record<Criterion, number>>>
  reasoning?: string
}

export interface Report {
  createdAt: string
  seed: number
  /** provider/model, or the offline demo model; never a key or an endpoint. */
  model: string
  judge?: string
  versions: Record<Version, VersionInfo>
  scenarios: Scenario[]
  sides: Record<string, Sides>
  runs: RunResult[]
  judgements: Judgement[]
  /** The persona change being judged: a unified diff base → change of persona/ and philosophy/ (persona-diff.ts). */
  personaDiff?: string
}

/** The machine-readable line both report files carry: `cyrene volume new --ab-report` reads it (memory/ab-review.ts). */
function reportMark(report: Report): string {
  return reportMarkLine({ base: report.versions.base.fingerprint, change: report.versions.change.fingerprint, seed: report.seed, createdAt: report.createdAt })
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.codePointAt(0)};`)
const runOf = (report: Report, scenario: string, version: Version): RunResult | undefined =>
  report.runs.find((r) => r.scenario === scenario && r.version === version)

function summary(report: Report): { runs: number; failed: number } {
  return { runs: report.runs.length, failed: report.runs.filter((r) => !r.ok).length }
}

function stateLines(s: Scenario): string[] {
  const lines: string[] = [`preset: ${s.preset}`]
  if (s.nickname !== undefined) lines.push(`称呼: ${s.nickname}`)
  for (const [k, v] of Object.entries(s.anchors)) lines.push(`锚点 ${k}: ${v}`)
  for (const m of s.memories) lines.push(`记忆${m.at === undefined ? '' : ` ${m.at}`}: ${m.text}`)
  for (const c of s.commands) lines.push(`命令: ${c}`)
  for (const f of Object.keys(s.files)) lines.push(`文件: ${f}`)
  return lines
}

function htmlRun(run: RunResult | undefined): string {
  if (run === undefined) return '<p class="fail">没有运行。</p>'
  const parts: string[] = []
  if (!run.ok) parts.push(`<p class="fail">失败：${escapeHtml(run.error ?? 'unknown')}</p>`)
  for (const c of run.commands) parts.push(`<p class="cmd"><code>${escapeHtml(c.line)}</code> → ${c.ok ? '' : '✗ '}${escapeHtml(c.text)}</p>`)
  for (const turn of run.transcript?.turns ?? []) {
    parts.push(`<div class="user">${escapeHtml(turn.user)}</div>`)
    for (const call of turn.toolCalls)
      parts.push(
        `<div class="tool${call.isError ? ' fail' : ''}"><code>${escapeHtml(call.name)}</code> <code>${escapeHtml(call.arguments)}</code><br>→ ${escapeHtml(call.result)}</div>`,
      )
    parts.push(`<div class="reply">${escapeHtml(turn.reply === '' ? '（没有回答）' : turn.reply)}</div>`)
    if (turn.injected.length > 0)
      parts.push(`<details><summary>注入 ${turn.injected.length} 块</summary>${turn.injected.map((t) => `<pre>${escapeHtml(t)}</pre>`).join('')}</details>`)
  }
  return parts.join('\n')
}

function htmlScores(j: Judgement | undefined, side: 'A' | 'B'): string {
  if (j === undefined) return ''
  if (!j.ok) return `<p class="fail">评审失败：${escapeHtml(j.error ?? '')}</p>`
  const scores = j.scores?.[side] ?? {}
  return `<table class="scores">${CRITERIA.map((c) => `<tr><td>${CRITERION_LABELS[c]}</td><td>${scores[c] ?? '–'}</td></tr>`).join('')}</table>`
}

/** The persona diff the report judges, first on the page: removed lines red, added green. */
function htmlDiff(diff: string | undefined): string {
  if (diff === undefined) return ''
  const body =
    diff === ''
      ? '<p>两边的人设文件（persona/、philosophy/）完全相同。</p>'
      : `<pre class="diff">${diff
          .split('\n')
          .map((l) => {
            const cls =
              l.startsWith('+++') || l.startsWith('---') ? 'file' : l.startsWith('+') ? 'add' : l.startsWith('-') ? 'del' : l.startsWith('@@') ? 'hunk' : ''
            return cls === '' ? escapeHtml(l) : `<span class="${cls}">${escapeHtml(l)}</span>`
          })
          .join('\n')}</pre>`
  return `<div id="persona-diff"><h2>评判的人设改动（旧版 → 新版）</h2>${body}</div>`
}

/** The side-by-side page: A and B per scenario in a random order, revealed only at the end. Pure. */
export function renderHtml(report: Report): string {
  const { runs, failed } = summary(report)
  const sections = report.scenarios.map((s) => {
    const sides = report.sides[s.id] as Sides
    const j = report.judgements.find((x) => x.scenario === s.id)
    return `<section id="${escapeHtml(s.id)}">
<h2>${escapeHtml(s.id)} · ${escapeHtml(s.title)}</h2>
<p class="watch">看什么：${escapeHtml(s.watch)}</p>
<details><summary>场景状态</summary><ul>${stateLines(s)
      .map((l) => `<li>${escapeHtml(l)}</li>`)
      .join('')}</ul></details>
<div class="pair">
<div class="side"><h3>A</h3>${htmlRun(runOf(report, s.id, sides.A))}${htmlScores(j, 'A')}</div>
<div class="side"><h3>B</h3>${htmlRun(runOf(report, s.id, sides.B))}${htmlScores(j, 'B')}</div>
</div>
${j?.ok === true && j.reasoning !== undefined ? `<details><summary>评审理由</summary><p>${escapeHtml(j.reasoning)}</p></details>` : ''}
</section>`
  })
  const reveal = report.scenarios
    .map((s) => {
      const sides = report.sides[s.id] as Sides
      return `<tr><td>${escapeHtml(s.id)}</td><td>${sides.A === 'base' ? '旧版 (base)' : '新版 (change)'}</td><td>${sides.B === 'base' ? '旧版 (base)' : '新版 (change)'}</td></tr>`
    })
    .join('')
  return `<!doctype html>
<html lang="zh">
<head><meta charset="utf-8"><title>昔涟 persona A/B</title>
<style>
body{font-family:system-ui,"WenQuanYi Zen Hei",sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:1em}.side{border:1px solid #ddd;border-radius:8px;padding:.5em 1em}
.user{background:#eef3ff;border-radius:6px;padding:.4em .6em;margin:.6em 0}.reply{white-space:pre-wrap;margin:.4em 0 .8em}
.tool{font-size:.85em;color:#555;margin:.3em 0}.fail{color:#b00020}.watch{color:#555}.cmd{font-size:.85em}
pre{white-space:pre-wrap;font-size:.8em;background:#f6f6f6;padding:.5em}.diff .add{color:#116329;background:#e6ffec}.diff .del{color:#82071e;background:#ffebe9}.diff .hunk{color:#555}.diff .file{font-weight:600}table{border-collapse:collapse}td{border:1px solid #ddd;padding:.2em .6em}
</style></head>
<body>
${reportMark(report)}
<h1>昔涟 persona A/B</h1>
<p>${report.scenarios.length} 个场景，${runs} 次运行${failed > 0 ? `，<span class="fail">${failed} 次失败</span>` : ''}。模型：${escapeHtml(report.model)}${report.judge === undefined ? '' : `；评审：${escapeHtml(report.judge)}`}。种子 ${report.seed}（同一种子，同样的 A/B 顺序）。</p>
${htmlDiff(report.personaDiff)}
<p>每个场景里 A 和 B 哪个是新版是随机的；读完再打开最后的「揭晓」。</p>
${sections.join('\n')}
<details id="reveal"><summary><h2 style="display:inline">揭晓</h2></summary>
<p>旧版 (base)：${escapeHtml(report.versions.base.source)}，指纹 <code>${escapeHtml(report.versions.base.fingerprint)}</code><br>
新版 (change)：${escapeHtml(report.versions.change.source)}，指纹 <code>${escapeHtml(report.versions.change.fingerprint)}</code></p>
<table><tr><th>场景</th><th>A</th><th>B</th></tr>${reveal}</table>
</details>
</body></html>
`
}

function mdRun(run: RunResult | undefined): string[] {
  if (run === undefined) return ['（没有运行）']
  const lines: string[] = []
  if (!run.ok) lines.push(`**失败**：${run.error ?? 'unknown'}`)
  for (const c of run.commands) lines.push(`- 命令 \`${c.line}\` → ${c.ok ? '' : '✗ '}${c.text.split('\n')[0]}`)
  for (const turn of run.transcript?.turns ?? []) {
    lines.push(`> ${turn.user.replace(/\n/g, '\n> ')}`, '')
    for (const call of turn.toolCalls) lines.push(`- 工具 \`${call.name}\` \`${call.arguments}\` → ${call.isError ? '✗ ' : ''}${call.result.split('\n')[0]}`)
    lines.push('', turn.reply === '' ? '（没有回答）' : turn.reply, '')
  }
  const writes = run.transcript === undefined ? [] : memoryWrites(run.transcript)
  if (writes.length > 0) lines.push(`记忆写入：${writes.length} 次`, '')
  return lines
}

/** The same report as markdown, for reading in a terminal or a diff. Pure. */
export function renderMarkdown(report: Report): string {
  const { runs, failed } = summary(report)
  const out: string[] = [
    reportMark(report),
    '',
    '# 昔涟 persona A/B',
    '',
    `${report.scenarios.length} 个场景，${runs} 次运行，${failed} 次失败。模型：${report.model}${report.judge === undefined ? '' : `；评审：${report.judge}`}。种子 ${report.seed}。`,
    'A 和 B 哪个是新版在每个场景里是随机的，文末揭晓。',
    '',
  ]
  if (report.personaDiff !== undefined)
    out.push(
      '## 评判的人设改动（旧版 → 新版）',
      '',
      report.personaDiff === '' ? '两边的人设文件完全相同。' : ['```diff', report.personaDiff, '```'].join('\n'),
      '',
    )
  for (const s of report.scenarios) {
    const sides = report.sides[s.id] as Sides
    out.push(`## ${s.id} · ${s.title}`, '', `看什么：${s.watch}`, '')
    for (const side of ['A', 'B'] as const) {
      out.push(`### ${side}`, '', ...mdRun(runOf(report, s.id, sides[side])))
      const j = report.judgements.find((x) => x.scenario === s.id)
      if (j?.ok === true) out.push(CRITERIA.map((c) => `${CRITERION_LABELS[c]} ${j.scores?.[side]?.[c] ?? '–'}`).join(' · '), '')
    }
  }
  out.push(
    '## 揭晓',
    '',
    `- 旧版 (base)：${report.versions.base.source}，指纹 \`${report.versions.base.fingerprint}\``,
    `- 新版 (change)：${report.versions.change.source}，指纹 \`${report.versions.change.fingerprint}\``,
    '',
    '| 场景 | A | B |',
    '|---|---|---|',
    ...report.scenarios.map((s) => `| ${s.id} | ${report.sides[s.id]?.A} | ${report.sides[s.id]?.B} |`),
    '',
  )
  return out.join('\n')
}
