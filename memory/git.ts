/** The door to the store's git sync: the sync itself, the remote, the conflicts left for the person, git's errors (docs/decisions/281). */
export { syncGit, configuredRemote, currentRemote, gitStatus, CallRunningError, type GitSyncReport } from './git-sync.ts'
export { remoteProblemSaid } from './git-repo.ts'
export { listConflicts, resolveConflict } from './git-conflicts.ts'
export { GitDamagedError, GitError, GitMissingError } from './git-run.ts'
