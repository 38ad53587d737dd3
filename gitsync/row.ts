/** The git sync's DSH side: started by row `cyrene-panel` in the process that holds the memory engine. */
export { startGitSync } from './runner.ts'
