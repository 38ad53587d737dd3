/**
 * `/cyrene dream on|off|status` and `/dream`: the night's commands. Their work
 * is the host's `cyreneDream` service (host/night/, issue 11); the one
 * registration of each lives in host/night/commands.ts.
 */
export { DREAM_SUBCOMMAND as dreamRow, registerDreamCommand } from '../host/night/commands.ts'
