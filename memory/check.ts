import { accessSync, constants, lstatSync, promises as fs } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { charCount } from '../prompt/index.ts'
import { GATES } from './entry.ts'
import { isUsableId } from './id.ts'
import { isTempName, walkFiles, DIR_MODE, FILE_MODE } from './fsio.ts'
import { LAYOUT, dateOfEntryFile, snapshotsDirOf } from './paths.ts'
import type { MemoryStore, StoredEntry } from './store.ts'
import { AXES, LINK_TYPES } from './entry.ts'
import { readAnchor } from './anchors.ts'
import { ANCHOR_KEYS } from './settings.ts'
import { findRetiredPlugins } from './migrate.ts'
import { CONFLICTS_DIR, listConflicts } from './git-conflicts.ts'
import { isForgedClaim, MARKS_REL } from './person-marks.ts'
import { splitLink } from './validate.ts'
import type { Said } from './said.ts'

export interface Finding {
  code: string
  /** In English (logs, `--json`); `said` is the same finding for another language (decision 082). */
  message: string
  said?: Said
  file?: string
  line?: number
}

export interface CheckReport {
  errors: Finding[]
  warnings: Finding[]
  notes: Finding[]
  stats: { entries: number; day: number; pending: number; files: number; bytes: number; marginBytes: number }
  fixed: string[]
  /** `fixed` as codes, for the person's language; same order. */
  fixedSaid: Said[]
}

export interface CheckOptions {
  /** Remove temp files left by killed writers and restore 0600/0700 modes (never through a link). */
  fix?: boolean
  onProgress?: (done: number, total: number) => void
  /** When given, retired plugins installed under this DSH_HOME are reported. */
  dshHome?: string
}

/**
 * Verify the whole store: format, ids, links, gate placement, quotas, the JSON
 * records in 元/, orphans, symbolic links below the root and file modes.
 * Read-only unless `fix` is set, and even then it only deletes writer temp
 * files and changes modes.
 */
export async function checkStore(store: MemoryStore, opts: CheckOptions = {}): Promise<CheckReport> {
  const errors: Finding[] = []
  const warnings: Finding[] = []
  const notes: Finding[] = []
  const fixed: string[] = []
  const fixedSaid: Said[] = []
  const { entries, problems, files } = await store.scan(opts.onProgress)
  for (const p of problems) errors.push({ code: 'format', message: p.message, said: p.said, file: p.file, line: p.line })
  for (const f of files)
    for (const line of f.loose) {
      warnings.push({
        code: 'loose-text',
        message: 'text without a cyrene comment after it (kept as-is; not an entry)',
        said: { code: 'finding.loose-text' },
        file: f.file,
        line,
      })
    }

  const byId = new Map<string, StoredEntry>()
  for (const e of entries) {
    if (!isUsableId(e.id)) {
      const id = JSON.stringify(e.id).slice(0, 60)
      errors.push({ code: 'bad-id', message: `unusable id ${id}`, said: { code: 'finding.bad-id', params: { id } }, file: e.file, line: e.line })
    }
    const prev = byId.get(e.id)
    if (prev !== undefined) {
      const at = `${prev.file}:${prev.line}`
      errors.push({
        code: 'duplicate-id',
        message: `id ${e.id} also at ${at}`,
        said: { code: 'finding.duplicate-id', params: { id: e.id, at } },
        file: e.file,
        line: e.line,
      })
    } else byId.set(e.id, e)
  }
  const { marks, problem: marksProblem } = store.marks()
  if (marksProblem !== undefined)
    errors.push({
      code: 'person-marks',
      message: `${marksProblem}: no entry reads as yours until it is restored (cyrene restore) or rebuilt with \`cyrene memory marks --confirm\``,
      said: { code: 'finding.person-marks', params: { problem: marksProblem } },
      file: MARKS_REL,
    })
  for (const e of entries) {
    const m = e.meta
    if (isForgedClaim(marks, e))
      errors.push({
        code: 'unbacked-person',
        message: `the comment says ${m.base === true ? '"base": true' : '"by": "person"'}, but ${MARKS_REL} has no matching record, so it is treated as the model's. If you wrote or edited it yourself, confirm it: cyrene memory marks --confirm ${e.id}`,
        said: { code: 'finding.unbacked-person', params: { claim: m.base === true ? '"base": true' : '"by": "person"', marks: MARKS_REL, id: e.id } },
        file: e.file,
        line: e.line,
      })
    if (m.links !== undefined) {
      if (!Array.isArray(m.links))
        errors.push({ code: 'link', message: 'links must be a list', said: { code: 'finding.link.not-list' }, file: e.file, line: e.line })
      else
        for (const l of m.links) {
          if (typeof l !== 'string') {
            errors.push({ code: 'link', message: 'a link is not a string', said: { code: 'finding.link.not-string' }, file: e.file, line: e.line })
            continue
          }
          const { target, type } = splitLink(l)
          if (!byId.has(target))
            errors.push({
              code: 'link',
              message: `link to unknown entry ${target}`,
              said: { code: 'finding.link.unknown', params: { id: target } },
              file: e.file,
              line: e.line,
            })
          if (type !== '' && !(LINK_TYPES as readonly string[]).includes(type))
            errors.push({
              code: 'link',
              message: `unknown link type ${type}`,
              said: { code: 'finding.link.type', params: { type, types: LINK_TYPES.join('/') } },
              file: e.file,
              line: e.line,
            })
        }
    }
    if (Array.isArray(m.src_ids))
      for (const s of m.src_ids) {
        if (typeof s === 'string' && !byId.has(s))
          warnings.push({
            code: 'src-id',
            message: `src_ids names ${s}, which is not in this store (fine for imported sources)`,
            said: { code: 'finding.src-id', params: { id: s } },
            file: e.file,
            line: e.line,
          })
      }
    if (m.gate !== undefined && !(GATES as readonly string[]).includes(m.gate))
      warnings.push({
        code: 'gate',
        message: `unknown gate value ${JSON.stringify(m.gate)}`,
        said: { code: 'finding.gate.unknown', params: { gate: JSON.stringify(m.gate) } },
        file: e.file,
        line: e.line,
      })
    // A comment edited by hand: a date nothing can sort by, an axis that is none of the five, a volume that is no number.
    const odd = oddField(m as unknown as Record<string, unknown>)
    if (odd !== undefined)
      warnings.push({
        code: 'meta-field',
        message: `"${odd.field}" is ${odd.value}, not ${odd.want}; correct it in the comment`,
        said: { code: `finding.meta-${odd.field}`, params: { value: odd.value } },
        file: e.file,
        line: e.line,
      })
    if (e.area === 'day' && m.gate === 'pending')
      warnings.push({
        code: 'gate',
        message: 'an entry marked pending sits in a day file',
        said: { code: 'finding.gate.pending-in-day' },
        file: e.file,
        line: e.line,
      })
    if (e.area === 'pending' && m.gate !== undefined && m.gate !== 'pending')
      warnings.push({
        code: 'gate',
        message: `an entry marked ${m.gate} sits in 余页/待定`,
        said: { code: 'finding.gate.in-pending', params: { gate: String(m.gate) } },
        file: e.file,
        line: e.line,
      })
    if (charCount(e.text) > store.limits.entryChars)
      warnings.push({
        code: 'entry-size',
        message: `entry text is ${charCount(e.text)} characters (limit ${store.limits.entryChars}); it was edited by hand — it is kept, but injected cut short`,
        said: { code: 'finding.entry-size', params: { chars: charCount(e.text), limit: store.limits.entryChars } },
        file: e.file,
        line: e.line,
      })
    if (m.gate === 'promoted' && typeof m.source_ref === 'string') {
      const [srcFile, srcId] = m.source_ref.split('#')
      const src = srcId === undefined ? undefined : byId.get(srcId)
      if (src === undefined || src.file !== srcFile)
        warnings.push({
          code: 'orphan-ref',
          message: `promoted from ${m.source_ref}, which is no longer there`,
          said: { code: 'finding.orphan-ref', params: { ref: m.source_ref } },
          file: e.file,
          line: e.line,
        })
    }
  }

  // Files that are not where the layout says, and leftovers of killed writers.
  for (const area of [LAYOUT.days, LAYOUT.pending]) {
    for (const rel of await walkFiles(store.root, area)) {
      if (dateOfEntryFile(rel) !== undefined) continue
      if (isTempName(rel)) {
        if (opts.fix === true) {
          await store.withWriteLock(async () => {
            await fs.unlink(join(store.root, rel)).catch(() => undefined)
          })
          fixed.push(`removed temp file ${rel}`)
          fixedSaid.push({ code: 'fixed.temp-file', params: { file: rel } })
        } else
          notes.push({
            code: 'temp-file',
            message: 'temp file left by a writer that was killed mid-write (not part of the store; `check --fix` removes it)',
            said: { code: 'finding.temp-file' },
            file: rel,
          })
        continue
      }
      if (area === LAYOUT.pending && rel.split('/').length > 3) continue
      warnings.push({
        code: 'orphan-file',
        message: 'file does not follow the layout (YYYY/MM/YYYY-MM-DD.md); it is not read as memories',
        said: { code: 'finding.orphan-file' },
        file: rel,
      })
    }
  }

  // 元/*.json: invalid JSON is an error a person must fix by hand.
  let metaNames: string[] = []
  try {
    metaNames = (await fs.readdir(join(store.root, LAYOUT.meta))).filter((n) => n.endsWith('.json'))
  } catch {
    /* none */
  }
  for (const n of metaNames) {
    const { problem } = await store.readMetaJson(n, null)
    if (problem !== undefined)
      errors.push({
        code: 'meta-json',
        message: `${problem}; fix it by hand or restore it from a snapshot`,
        said: { code: 'finding.meta-json', params: { problem } },
        file: `${LAYOUT.meta}/${n}`,
      })
  }
  store.settingsProblems.forEach((p, i) => {
    if (!p.includes('not valid JSON')) warnings.push({ code: 'settings', message: p, said: store.settingsSaid[i], file: '元/settings.json' })
  })

  const pendingState = await store.readMetaJson<{ entries?: Record<string, unknown> }>('待定复检.json', {})
  for (const id of Object.keys(pendingState.value?.entries ?? {})) {
    const e = byId.get(id)
    if (e === undefined || e.area !== 'pending')
      warnings.push({
        code: 'orphan-state',
        message: `recheck record for ${id}, which is not in 余页/待定`,
        said: { code: 'finding.orphan-state', params: { id } },
        file: '元/待定复检.json',
      })
  }

  // A git merge both sides changed differently: the person picks (CONTRACT#git-merge).
  const sync = await listConflicts(store)
  for (const c of sync.conflicts) {
    const pick = `cyrene memory resolve ${c.kind === 'entry' ? c.key : c.id} --keep a|b${c.kind === 'file' ? '' : '|both'}`
    errors.push({
      code: 'sync-conflict',
      message: `${c.kind === 'entry' ? `entry ${c.key}` : c.kind === 'section' ? `section "${c.key}"` : 'the whole file'} was changed on two machines; a (in the file) is kept, b waits in ${CONFLICTS_DIR}/${c.id}.json — pick with \`${pick}\``,
      said: {
        code: 'finding.sync-conflict',
        params: { what: { code: `part.conflict.${c.kind}`, params: { key: c.key } }, record: `${CONFLICTS_DIR}/${c.id}.json`, pick },
      },
      file: c.file,
    })
  }
  for (const p of sync.problems)
    errors.push({
      code: 'sync-conflict',
      message: `${p}; remove it or restore it from a snapshot`,
      said: { code: 'finding.sync-record', params: { problem: p } },
    })

  const usage = await store.measureUsage(true)
  if (usage.total > store.limits.totalBytes)
    errors.push({
      code: 'quota',
      message: `the store uses ${usage.total} bytes, over the ${store.limits.totalBytes} quota; new writes are refused until space is freed`,
      said: { code: 'finding.quota.total', params: { used: usage.total, limit: store.limits.totalBytes } },
    })
  if (usage.margin > store.limits.marginBytes)
    errors.push({
      code: 'quota',
      message: `余页/ uses ${usage.margin} bytes, over its ${store.limits.marginBytes} quota`,
      said: { code: 'finding.quota.margin', params: { used: usage.margin, limit: store.limits.marginBytes } },
    })

  for (const key of ANCHOR_KEYS) {
    const a = await readAnchor(store, key)
    if (a.chars > a.limit)
      warnings.push({
        code: 'anchor-size',
        message: `anchor ${key} has ${a.chars} characters, over its ${a.limit} limit (edited by hand?); the next write archives older sections`,
        said: { code: 'finding.anchor-size', params: { key, chars: a.chars, limit: a.limit } },
        file: a.file,
      })
  }
  if (opts.dshHome !== undefined) {
    for (const r of await findRetiredPlugins(opts.dshHome)) {
      errors.push({
        code: 'retired-plugin',
        message: `retired plugin ${r.name} is installed in ${r.where}; it shares ids and storage with this one — uninstall it (after \`cyrene migrate\`)`,
        said: { code: 'finding.retired-plugin', params: { name: r.name, where: r.where } },
      })
    }
  }

  await checkTree(store.root, '', opts.fix === true, { errors, warnings, fixed, fixedSaid })
  // After `--fix` (which gives a folder of yours its 0700 back): a place every write needs that this user may not write is an
  // error, not a mode to tidy — the store cannot record anything (decision 290). The doctor asks the same function.
  const denied = deniedPlace(store.root)
  if (denied !== undefined) {
    const file = placeName(store.root, denied.path)
    const at = warnings.findIndex((w) => w.code === 'mode' && w.file === file)
    if (at >= 0) warnings.splice(at, 1)
    errors.push({
      code: 'access',
      message: `${denied.path} (mode ${denied.mode}, owner uid ${denied.uid}) may not be read and written by this user (uid ${denied.me}): every write to the store refuses. Give it back: chmod u+rw '${denied.path}' (a folder also u+x), or chown it to uid ${denied.me}`,
      said: { code: 'finding.access', params: { ...denied } },
      file,
    })
  }

  return {
    errors,
    warnings,
    notes,
    fixed,
    fixedSaid,
    stats: {
      entries: entries.length,
      day: entries.filter((e) => e.area === 'day').length,
      pending: entries.filter((e) => e.area === 'pending').length,
      files: files.length,
      bytes: usage.total,
      marginBytes: usage.margin,
    },
  }
}

export interface DeniedPlace {
  path: string
  mode: string
  uid: string
  me: string
}

/**
 * The first place every write needs that this user may not read and write (a mode set by hand, a
 * copy made by another user): the root, 元/, its person marks and settings, the snapshots' folder.
 * The store's files still read fine, so nothing else would say so. `memory check` and the doctor
 * both ask this (decision 290).
 */
export function deniedPlace(root: string): DeniedPlace | undefined {
  const places: [path: string, need: number][] = [
    [root, constants.R_OK | constants.W_OK | constants.X_OK],
    [join(root, LAYOUT.meta), constants.R_OK | constants.W_OK | constants.X_OK],
    [join(root, LAYOUT.meta, 'person-marks.json'), constants.R_OK | constants.W_OK],
    [join(root, LAYOUT.meta, 'settings.json'), constants.R_OK | constants.W_OK],
    [snapshotsDirOf(root), constants.R_OK | constants.W_OK | constants.X_OK],
  ]
  for (const [path, need] of places) {
    try {
      accessSync(path, need)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EACCES' && (error as NodeJS.ErrnoException).code !== 'EPERM') continue
      const st = lstatSync(path)
      return { path, mode: (st.mode & 0o7777).toString(8).padStart(4, '0'), uid: String(st.uid), me: String(process.getuid?.() ?? '?') }
    }
  }
  return undefined
}

/** A path as a finding names it: relative below the root ('.' for the root), else whole (the snapshots' folder). */
function placeName(root: string, path: string): string {
  const rel = relative(root, path)
  return rel === '' ? '.' : rel.startsWith('..') ? path : rel.split(sep).join('/')
}

interface TreeFindings {
  errors: Finding[]
  warnings: Finding[]
  fixed: string[]
  fixedSaid: Said[]
}

/**
 * Walk the whole root: every symbolic link below it is an error (the store
 * never follows one; the root itself may be a link), and modes are checked —
 * with lstat, so `--fix` never chmods through a link (a link to a system
 * folder must not make that folder 0600).
 */
async function checkTree(root: string, rel: string, fix: boolean, out: TreeFindings): Promise<void> {
  const dir = rel === '' ? root : join(root, rel)
  if (rel === '') {
    const st = await fs.stat(root).catch(() => undefined)
    if (st !== undefined && (st.mode & 0o777) !== DIR_MODE) {
      if (fix) {
        await fs.chmod(root, DIR_MODE)
        out.fixed.push(`mode of the root set to 700`)
        out.fixedSaid.push({ code: 'fixed.root-mode' })
      } else
        out.warnings.push({
          code: 'mode',
          message: `the root folder has mode ${(st.mode & 0o777).toString(8)}, expected 700 (private to you); \`check --fix\` repairs it`,
          said: { code: 'finding.mode.root', params: { mode: (st.mode & 0o777).toString(8) } },
          file: '.',
        })
    }
  }
  let ents: import('node:fs').Dirent[] = []
  try {
    ents = await fs.readdir(dir, { withFileTypes: true })
  } catch {
    return
  }
  for (const d of ents) {
    const r = rel === '' ? d.name : `${rel}/${d.name}`
    const st = await fs.lstat(join(root, r)).catch(() => undefined)
    if (st === undefined) continue
    if (st.isSymbolicLink()) {
      out.errors.push(await linkFinding(root, r))
      continue
    }
    if (d.name.endsWith('.lock') || d.name.endsWith('.reaping')) continue
    // git's own history (the sync): its files' modes are git's (packs 0444, hooks 0755), and its
    // findings buried the store's own under dozens of lines (decision 287).
    if (r === '.git') continue
    if (r.startsWith('元/卷/')) {
      if (st.isDirectory()) await checkLinksOnly(root, r, out)
      continue
    } // volume snapshots are read-only on purpose
    const want = st.isDirectory() ? DIR_MODE : FILE_MODE
    if ((st.mode & 0o777) !== want) {
      if (fix) {
        await fs.chmod(join(root, r), want)
        out.fixed.push(`mode of ${r} set to ${want.toString(8)}`)
        out.fixedSaid.push({ code: 'fixed.mode', params: { file: r, mode: want.toString(8) } })
      } else
        out.warnings.push({
          code: 'mode',
          message: `mode ${(st.mode & 0o777).toString(8)}, expected ${want.toString(8)} (private to you); \`check --fix\` repairs it`,
          said: { code: 'finding.mode.file', params: { mode: (st.mode & 0o777).toString(8), want: want.toString(8) } },
          file: r,
        })
    }
    if (st.isDirectory()) await checkTree(root, r, fix, out)
  }
}

/** Links under folders whose modes are not ours to check (volume persona snapshots). */
async function checkLinksOnly(root: string, rel: string, out: TreeFindings): Promise<void> {
  let ents: import('node:fs').Dirent[] = []
  try {
    ents = await fs.readdir(join(root, rel), { withFileTypes: true })
  } catch {
    return
  }
  for (const d of ents) {
    const r = `${rel}/${d.name}`
    if (d.isSymbolicLink()) out.errors.push(await linkFinding(root, r))
    else if (d.isDirectory()) await checkLinksOnly(root, r, out)
  }
}

async function linkFinding(root: string, rel: string): Promise<Finding> {
  const to = await fs.readlink(join(root, rel)).catch(() => '?')
  return {
    code: 'symlink',
    message: `symbolic link ${rel} → ${to}: the store never follows links below its root (writes through it are refused, reads skip it); replace the link with the file or folder itself (\`check --fix\` leaves links alone)`,
    said: { code: 'finding.symlink', params: { file: rel, to } },
    file: rel,
  }
}

/** The first field of a comment whose value is not of its kind: `at` a date, `axis` one of the five, `vol` a whole number ≥ 0. */
function oddField(m: Record<string, unknown>): { field: string; value: string; want: string } | undefined {
  const shown = (v: unknown): string => JSON.stringify(v).slice(0, 60)
  if (m.at !== undefined && (typeof m.at !== 'string' || !/^\d{4}-\d{2}-\d{2}(?:T|$)/.test(m.at) || Number.isNaN(Date.parse(m.at))))
    return { field: 'at', value: shown(m.at), want: 'a date and time (2026-01-31T12:00:00.000Z)' }
  if (m.axis !== undefined && !(AXES as readonly unknown[]).includes(m.axis)) return { field: 'axis', value: shown(m.axis), want: `one of ${AXES.join(' ')}` }
  if (m.vol !== undefined && !(Number.isInteger(m.vol) && (m.vol as number) >= 0)) return { field: 'vol', value: shown(m.vol), want: 'a whole number from 0' }
  return undefined
}
