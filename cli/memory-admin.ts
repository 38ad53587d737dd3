import { help, langOf, say } from './help-text.ts'
import { DEFAULT_LANG, t, type Lang } from '../i18n/index.ts'
import { resolve } from 'node:path'
import { existsSync } from 'node:fs'
import { readRegularFileSync } from '../durable/read-regular.ts'
import { itemsFromWhaleInbox, whaleInboxPath } from './whale-migrate.ts'
import { recordedVouch } from './whale-record.ts'
import { CliError, type CliIO } from './io.ts'
import { CyreneCommand } from './command.ts'
import { guarded, openStore, out, progress, storeOptions, type StoreOptions } from './memory-shared.ts'
import { storeSaidText, withoutSaid } from './refusal-text.ts'
import { PACKAGE_ROOT } from '../host/package-root.ts'
import { newVolume, personaSourcesOf } from '../host/new-volume.ts'
import { takeSnapshot, describeSnapshots, restoreSnapshot, migrate, findRetiredPlugins } from '../memory/upkeep.ts'
import { readVolumes, ensureVolumePersonaHash, abReviewOf, type AbReview } from '../memory/person.ts'
import { resolveDshHome } from '../memory/paths.ts'

interface ListOptions extends StoreOptions {
  list?: true
}

export function backupFamily(io: CliIO): CyreneCommand {
  return storeOptions(new CyreneCommand('backup', io).description(help(io, 'cli.backup')).option('--list', help(io, 'cli.backup.list'))).act<ListOptions>(
    async (o) => await backup(o, io),
  )
}

async function backup(o: ListOptions, io: CliIO): Promise<number> {
  const store = await openStore(io, o.root)
  if (o.list) {
    const list = await describeSnapshots(store)
    out(
      io,
      o.json,
      snapshotListJson(list, { dir: store.snapshotsDir }),
      () => `${store.snapshotsDir}\n${list.map((s) => `  ${snapshotLine(s, io)}`).join('\n')}\n`,
    )
    return 0
  }
  const s = await guarded(io, () => takeSnapshot(store, 'manual', progress(io, say(io, 'store.progress.backup'), o.quiet)))
  out(io, o.json, s, () => `${t('cli.backup.done', lang(io), { name: s.name, files: s.files, path: s.path })}\n`)
  return 0
}

export function restoreFamily(io: CliIO): CyreneCommand {
  return storeOptions(
    new CyreneCommand('restore', io)
      .description(help(io, 'cli.restore'))
      .addHelpText('after', help(io, 'cli.restore.details'))
      .argument('[snapshot]', help(io, 'cli.restore.snapshot'))
      .option('--list', help(io, 'cli.restore.list')),
  ).act<ListOptions>(async (o, args) => await restore(o, args, io))
}

async function restore(o: ListOptions, args: string[], io: CliIO): Promise<number> {
  const store = await openStore(io, o.root)
  const name = args[0]
  if (o.list || name === undefined) {
    const list = await describeSnapshots(store)
    out(io, o.json, snapshotListJson(list), () => `${list.length === 0 ? t('cli.restore.none', lang(io)) : list.map((s) => snapshotLine(s, io)).join('\n')}\n`)
    return name === undefined && !o.list ? 2 : 0
  }
  // A failure before the restore commits says that nothing changed (memory/untouched.ts, read by main).
  const r = await guarded(io, () => restoreSnapshot(store, name, { by: 'person' }, progress(io, say(io, 'store.progress.restore'), o.quiet)))
  const { warningsSaid: _said, ...json } = r
  out(
    io,
    o.json,
    json,
    () =>
      [
        t('cli.restore.done', lang(io), { restored: r.restored, name, removed: r.removed, safety: r.safety }),
        ...(r.verified ? [] : [t('cli.restore.unverified', lang(io), { name })]),
        ...r.linksReplaced.map((l) => t('cli.restore.link', lang(io), { path: l })),
        ...r.warnings.map((w, i) => t('cli.restore.warning', lang(io), { warning: storeSaidText(r.warningsSaid[i], w, io) })),
      ].join('\n') + '\n',
  )
  return 0
}

function snapshotLine(s: { name: string; verified: boolean }, io: CliIO): string {
  return s.verified ? s.name : `${s.name}${t('cli.restore.unverifiedTag', lang(io))}`
}

const lang = (io: CliIO): Lang => io.lang ?? DEFAULT_LANG

function snapshotListJson(list: Array<{ name: string; verified: boolean }>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...extra, snapshots: list.map((s) => s.name), unverified: list.filter((s) => !s.verified).map((s) => s.name) }
}

interface VolumeOptions extends StoreOptions {
  reason?: string
  confirm?: string
  persona?: string
  abReport?: string
  verdict?: string
}

export function volumeFamily(io: CliIO): CyreneCommand {
  return storeOptions(
    new CyreneCommand('volume', io)
      .description(help(io, 'cli.volume'))
      .argument('[verb]', help(io, 'cli.volume.verb'))
      .option('--reason <TEXT>', help(io, 'cli.volume.reason'))
      .option('--confirm <WORD>', help(io, 'cli.volume.confirm'))
      .option('--persona <DIR>', help(io, 'cli.volume.persona'))
      .option('--ab-report <FILE>', help(io, 'cli.volume.abReport'))
      .option('--verdict <V>', help(io, 'cli.volume.verdict')),
  ).act<VolumeOptions>(async (o, args) => await volume(o, args, io))
}

async function volume(o: VolumeOptions, args: string[], io: CliIO): Promise<number> {
  const [verb = 'show'] = args
  const store = await openStore(io, o.root)
  const pkg = o.persona !== undefined ? resolve(io.cwd, o.persona) : PACKAGE_ROOT
  if (verb === 'show') {
    const v = await guarded(io, () => readVolumes(store))
    out(io, o.json, v ?? null, () =>
      v === undefined
        ? `${say(io, 'store.volume.none')}\n`
        : `${say(io, 'store.volume.current', { n: v.current })}\n${v.volumes.map((x) => `  ${x.id}  ${x.started_at}  ${x.reason}  ${x.persona_hash.slice(0, 20)}…`).join('\n')}\n`,
    )
    return 0
  }
  if (verb === 'complete') {
    const v = await guarded(io, () => ensureVolumePersonaHash(store, personaSourcesOf(pkg)))
    out(io, o.json, v, () => `${say(io, 'store.volume.complete', { n: v.current })}\n`)
    return 0
  }
  if (verb !== 'new') throw new CliError(say(io, 'store.volume.usage'), 2)
  const ab = abCheck(o, io)
  const v = await guarded(io, () => newVolume(store, { reason: o.reason ?? '', confirm: o.confirm ?? '', ...(ab === undefined ? {} : { ab }) }, pkg))
  out(
    io,
    o.json,
    v,
    () =>
      `${say(io, 'store.volume.opened', { id: String(v.id), reason: v.reason })}\n${say(io, 'store.volume.fingerprint', { hash: v.persona_hash })}\n` +
      (v.ab === undefined ? '' : `${say(io, 'store.volume.ab', { verdict: v.ab.verdict, report: v.ab.report_sha256.slice(0, 23) })}\n`) +
      `${say(io, 'store.volume.unchanged')}\n`,
  )
  return 0
}

/** `--ab-report` and `--verdict` come together; the report's bytes are read now, checked against the persona when the volume opens. */
function abCheck(o: VolumeOptions, io: CliIO): ((fingerprint: string) => AbReview) | undefined {
  if (o.abReport === undefined && o.verdict === undefined) return undefined
  if (o.abReport === undefined || o.verdict === undefined) throw new CliError(say(io, 'store.volume.abPair'), 2)
  const file = resolve(io.cwd, o.abReport)
  let bytes: Buffer
  try {
    // A FIFO or a device (/dev/zero never ends) is no report: refused at once, never waited on.
    bytes = readRegularFileSync(file, true)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EINVAL') throw new CliError(say(io, 'store.volume.abNotRegular', { file }), 2)
    throw new CliError(say(io, 'store.volume.abUnreadable', { file, why: code ?? (error as Error).message }), 2)
  }
  return (fingerprint) => abReviewOf(bytes, o.verdict as string, fingerprint, file)
}

interface MigrateOptions extends StoreOptions {
  from?: string
  fromWhale?: true
  dryRun?: true
}

export function migrateFamily(io: CliIO): CyreneCommand {
  return storeOptions(
    new CyreneCommand('migrate', io)
      .description(help(io, 'cli.migrate'))
      .option('--from <PATH>', help(io, 'cli.migrate.from'))
      .option('--from-whale', help(io, 'cli.migrate.fromWhale'))
      .option('--dry-run', help(io, 'cli.dryRun2')),
  ).act<MigrateOptions>(async (o) => await migrateFrom(o, io))
}

async function migrateFrom(o: MigrateOptions, io: CliIO): Promise<number> {
  if ((o.from === undefined) === (o.fromWhale !== true)) throw new CliError(say(io, 'store.migrate.noSource'), 2)
  let from: string
  if (o.fromWhale === true) {
    from = whaleInboxPath({ env: io.env, cwd: io.cwd })
    if (!existsSync(from)) throw new CliError(say(io, 'store.migrate.noInbox', { path: from }), 2)
  } else {
    from = resolve(io.cwd, o.from as string)
  }
  const store = await openStore(io, o.root)
  const r = await guarded(io, () =>
    migrate(store, from, {
      dryRun: o.dryRun,
      onProgress: progress(io, say(io, 'store.progress.migrate'), o.quiet),
      // the view `cyrene whale inbox list` shows: the person's record vouches for each confirmation (decision 254, 307)
      readInbox: (text, path) => itemsFromWhaleInbox(text, path, langOf(io), recordedVouch(io.env)),
    }),
  )
  let retired: Array<{ name: string; where: string }> = []
  try {
    retired = await findRetiredPlugins(resolveDshHome({ env: io.env }))
  } catch {
    /* no DSH_HOME: nothing to report */
  }
  out(io, o.json, { ...r, skipped: withoutSaid(r.skipped), already: withoutSaid(r.already), retiredInstalled: retired }, () => {
    // A skipped line's why is the reader's: the whale inbox's is worded here (whale-migrate.ts), an old plugin's file's by memory/migrate.ts.
    return (
      [
        migratedLine(r.dryRun, r.imported, r.from, io) + (r.already.length > 0 ? say(io, 'store.migrate.already', { n: r.already.length }) : ''),
        ...r.sources.map((s) => say(io, 'store.migrate.source', { kind: s.kind.padEnd(9), n: s.items, path: s.path })),
        ...(r.snapshot !== undefined ? [say(io, 'store.migrate.snapshot', { name: r.snapshot })] : []),
        ...r.skipped.map((s) => say(io, 'store.migrate.skipped', { origin: s.origin, why: storeSaidText(s.said, s.why, io) })),
        ...retired.map((x) => say(io, 'store.migrate.retired', { name: x.name, where: x.where })),
        ...(r.dryRun ? [] : [say(io, 'store.migrate.next')]),
      ].join('\n') + '\n'
    )
  })
  return 0
}

function migratedLine(dryRun: boolean, n: number, from: string, io: CliIO): string {
  if (n === 1) return say(io, dryRun ? 'store.migrate.wouldOne' : 'store.migrate.doneOne', { from })
  return say(io, dryRun ? 'store.migrate.would' : 'store.migrate.done', { n, from })
}
