import path from 'node:path'
import type { MemoryConfig } from './config.ts'

/**
 * Where the files live (spec §2.1, interop notes). Pure: the caller says
 * whether the legacy config exists. Paths keep the form they were given in
 * (a relative DSH_HOME stays relative) because they appear in rendered text
 * and logs; the I/O layer resolves them against the working directory.
 */
export interface WhaleLocations {
  dshHome: string
  configDir: string
  configFile: string
  presetsDir: string
}

export interface LocationEnv {
  DSH_HOME?: string | undefined
  DSH_WHALE_CONFIG?: string | undefined
}

export function locate(env: LocationEnv, homeDir: string, legacyConfigIsFile: (file: string) => boolean): WhaleLocations {
  const dshHome = env.DSH_HOME || path.join(homeDir, '.dsh')
  const legacyDir = path.join(dshHome, 'whale-suite')
  const configDir = legacyConfigIsFile(path.join(legacyDir, 'config.json')) ? legacyDir : path.join(dshHome, 'whale-persona')
  // DSH_WHALE_CONFIG moves the config file only; everything else stays with DSH_HOME
  const configFile = env.DSH_WHALE_CONFIG || path.join(configDir, 'config.json')
  return { dshHome, configDir, configFile, presetsDir: path.join(configDir, 'presets') }
}

/** The inbox file as configured: `memory.inboxPath` as written, else the config dir default. */
export function inboxFileOf(memory: MemoryConfig, configDir: string): string {
  return memory.inboxPath || path.join(configDir, 'memory-inbox.jsonl')
}

export function sinkLogFileOf(memory: MemoryConfig, configDir: string): string {
  const configured = memory.sinkLog
  if (!configured) return path.join(configDir, 'sink-log.jsonl')
  return path.isAbsolute(configured) ? configured : path.join(configDir, configured)
}
