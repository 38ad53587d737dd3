import type { cliFailuresZh } from '../zh/cli-failures.ts'

/** What the command line says when the system refuses or a bug stops it, in English: the sentences it printed before (decision 082). */
export const cliFailuresEn: { readonly [K in keyof typeof cliFailuresZh]: string } = {
  'failure.changed.nothing': 'Nothing was changed.',
  'failure.changed.import':
    'Entries imported before the failure stay in the store; once it is fixed, run the same command again — what is already imported is recognised and skipped.',
  'failure.changed.restore':
    'The restore may have stopped part-way: the store as it was before is in the newest pre-restore snapshot (`cyrene restore --list`); once it is fixed, run the same restore again.',
  'failure.changed.whale': 'The step that failed changed nothing; an append cut short is cut off again. `cyrene whale inbox log` shows what the inbox holds.',
  'failure.changed.step':
    'The step that failed changed nothing; earlier steps of this command may have finished — `cyrene memory check` shows the state of the store.',
  'failure.fileOp': 'a file operation',
  'failure.perm.noPath': 'permission denied ({syscall}). {changed} Check who owns the memory store{where}.',
  'failure.perm.create': 'permission denied: cannot create {name} in {folder}',
  'failure.perm.path': 'permission denied: {path}',
  'failure.perm.unknown': '{head}. {changed} Check the owner and mode of that path and its folders (ls -ld).',
  'failure.kind.folder': 'folder',
  'failure.kind.file': 'file',
  'failure.perm.state': 'the {kind} {path} belongs to {owner} with mode {mode}; cyrene runs as {me}',
  'failure.fix.owner': "Run cyrene as {owner} (the owner), or have root give it to you: chown -R {uid}:{gid} '{target}'.",
  'failure.fix.root':
    "Root is refused here, so the file system forbids it (an immutable attribute or a protected mount?): check lsattr '{path}' and the mount options.",
  'failure.fix.mode': "It is yours but its mode forbids this; give yourself access back: chmod u+rw{x} '{path}'.",
  'failure.perm.full': '{head} ({state}). {changed} {fix}',
  'failure.conflict.fileNeedsFolder': '{path} is a file where the store needs a folder',
  'failure.conflict.folderNeedsFile': '{path} is a folder where the store keeps a file',
  'failure.conflict': "path conflict: {what}. {changed} Move it aside (mv '{path}' '{path}.aside'), look inside, then run the command again.",
  'failure.diskFull': 'disk full',
  'failure.diskQuota': 'disk quota exceeded',
  'failure.noSpace':
    "{what}: no space left for {where}. {changed} Free some space on that disk (df -h '{dir}' shows the space, df -i '{dir}' the files left) and try again.",
  'failure.tooBig':
    "file too large: {where}. {changed} A limit on the size of a file stopped the write (the shell's ulimit -f, or the file system's own): raise it (ulimit -f unlimited) and try again.",
  'failure.readOnly': 'read-only file system: {where}. {changed} Remount it read-write, or point DSH_HOME (or --root) at a writable place.',
  'failure.loop':
    'a link in the store leads round in a circle: {where}. {changed} Find it (ls -l on each folder of that path), put the folder back in its place (from a snapshot: cyrene restore --list), then try again.',
  'failure.io': 'the disk reported an input/output error at {where}. {changed} Check the disk (dmesg), then try again.',
  'failure.bug': 'unexpected error: {error}{code} — this is a bug in cyrene; please report it with the command you ran.',
  'failure.bug.debug': 'Run again with CYRENE_DEBUG=1 to see where it happened.',
}
