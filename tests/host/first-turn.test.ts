import { spawnSync } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { bootHost, PROJECT_ROOT, type Host } from '../harness/host.ts'

/**
 * The first message right after DSH starts arrives while the memory engine
 * and the recall index are still starting (found by `npm run persona:ab`,
 * whose first turn follows the start at once). The host calls below are made
 * the moment boot returns, before either can have read a file.
 */
let host: Host | undefined
afterEach(async () => {
  await host?.dispose()
  host = undefined
})

function importEntries(dshHome: string, lines: object[]): void {
  const run = spawnSync(process.execPath, ['bin/cyrene.js', 'memory', 'import', '--jsonl', '-', '--quiet'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DSH_HOME: dshHome },
    input: lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
    encoding: 'utf8',
  })
  expect(run.status, run.stderr).toBe(0)
}

describe('a turn during the start of the memory engine', () => {
  it('a model write waits for the starting engine instead of failing with "not running"', async () => {
    host = await bootHost()
    const memory = host.ctx.get('cyreneMemory')
    expect(memory.doctorState().engine.kind).toBe('starting')
    const written = await memory.writeAsModel({ text: '对方说第一句话就请我记住：他对花生过敏。', kind: 'fact', axis: '体', reason: '关乎健康' })
    expect(written.gate).toBe('day')
    expect((await memory.store().get(written.id))?.text).toBe('对方说第一句话就请我记住：他对花生过敏。')
  })

  it('recall waits for the index that is still being built, so the first message gets its hits', async () => {
    host = await bootHost({
      prepareHome: (home) =>
        importEntries(
          home,
          Array.from({ length: 60 }, (_, i) => ({
            text: i === 42 ? '对方第一次做红烧肉，糖放多了，室友都吃光了。' : `第 ${i} 条无关的记录：天气、通勤和午饭。`,
            at: '2026-01-05',
          })),
        ),
    })
    const memory = host.ctx.get('cyreneMemory')
    expect(memory.doctorState().recall.kind).not.toBe('ready')
    const hits = await memory.recall('红烧肉', 5)
    expect(hits.map((h: { text: string }) => h.text)).toContain('对方第一次做红烧肉，糖放多了，室友都吃光了。')
  })
})
