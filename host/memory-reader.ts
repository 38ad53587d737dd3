import { fileStampSync } from '../memory/files.ts'
import { readRecent, recentFiles } from '../memory/index.ts'
import { localDate } from '../memory/paths.ts'
import { MARKS_REL, ownerOf, readMarksSync } from '../memory/marks.ts'
import { join } from 'node:path'
import { frameOverhead } from '../prompt/index.ts'
import { composeMemoryBlock, MEMORY_TITLE, type MemoryBlockResult } from './memory-block.ts'
import { PerAssembly } from './per-assembly.ts'

function fingerprint(path: string): string {
  return fileStampSync(path) ?? '-'
}

/**
 * DSH reads prompt variables synchronously, right when it assembles a step, so
 * the text of `{{cyrene_memory}}` is read here synchronously too: a handful of
 * small files (four anchors, the newest days — `memory/recent.ts` knows which),
 * re-read only when one of them changed. Whatever a person wrote by hand or
 * through the CLI is in the next request.
 */
export class MemoryReader {
  private readonly root: string
  private readonly days: number
  /** Characters of `{{cyrene_memory}}` as the model reads it: frame and closing marker included. */
  private readonly budget: number
  private key = ''
  private last: MemoryBlockResult = { text: '', cut: 0, ids: [] }
  /** The days of the last read that held more entries than the block chooses from (memory/recent.ts). */
  private newestOnly: string[] = []
  /** Why the latest read failed, when it did (the doctor's "stale" line). */
  private failure: string | undefined
  /** The block each assembly read: its variable, the pass and the hits' exclusions see one block. */
  private readonly perAssembly = new PerAssembly<MemoryBlockResult>()

  constructor(root: string, days: number, budget: number) {
    this.root = root
    this.days = days
    this.budget = budget
  }

  /** The current block, or the last one read when the files cannot be read now (why is kept for the doctor); never throws. */
  readOrKeep(now = new Date()): MemoryBlockResult {
    try {
      const block = this.read(now)
      this.failure = undefined
      return block
    } catch (error) {
      this.failure = (error as Error).message
      return this.last
    }
  }

  /** `readOrKeep`, once for `assembly` (DSH's assembly context); without one, read now. */
  forAssembly(assembly?: object): MemoryBlockResult {
    return this.perAssembly.get(assembly, () => this.readOrKeep())
  }

  /** What the doctor shows: the block last read, and why the latest read failed, if it did. */
  lastRead(): { block: MemoryBlockResult; error: string | undefined; newestOnly: string[] } {
    return { block: this.last, error: this.failure, newestOnly: [...this.newestOnly] }
  }

  /** Which files make the block on `now`'s local day: the same all day, worked out once for it (every assembly asks). */
  private filesOn(now: Date): ReturnType<typeof recentFiles> {
    const day = localDate(now)
    if (this.files?.day !== day) this.files = { day, files: recentFiles(this.root, this.days, now) }
    return this.files.files
  }

  private files: { day: string; files: ReturnType<typeof recentFiles> } | undefined

  /** The current block; throws only if the files cannot be read at all (readOrKeep keeps the last one). */
  read(now = new Date()): MemoryBlockResult {
    const files = this.filesOn(now)
    // Who wrote an entry is the person-marks record's: a change there changes which entries are kept first.
    const marksPath = join(this.root, MARKS_REL)
    const key = [...files.anchors, ...files.days, { path: marksPath }].map(({ path }) => `${path}=${fingerprint(path)}`).join('|')
    if (key === this.key) return this.last
    const marks = readMarksSync(this.root).marks
    const { anchors, recent, newestOnly } = readRecent(files, (entry) => ownerOf(marks, entry) !== 'model')
    this.newestOnly = newestOnly
    this.last = composeMemoryBlock(
      anchors,
      recent,
      // The runtime draws the frame around this block; its header and marker come out of the same budget.
      Math.max(0, this.budget - frameOverhead(MEMORY_TITLE)),
    )
    this.key = key
    return this.last
  }
}
