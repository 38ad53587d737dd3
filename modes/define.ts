import type { RailSwitch } from '../rails/index.ts'

/**
 * A mode is a thin composition: which built-in preset it stands on, which
 * persona it speaks with, and which Cyrene rows it adds. scripts/build.ts turns
 * each mode into a DSH preset directory under presets/<id>/.
 */
/** The rails a mode turns on: the switches of rails/list.ts (a rail left out stays off). */
type RailSwitches = Partial<Record<RailSwitch, boolean>>

export interface Mode {
  /** Preset id; never changes, sessions resume by it. */
  id: string
  /** Row id the contract reserves for this preset wherever a host takes one. */
  loaderId: string
  label: string
  description: string
  order: number
  /** Built-in DSH preset whose capability rows this mode keeps. */
  base: string
  /** Persona file, relative to the package root. */
  persona: string
  rails: RailSwitches
  /** Row ids of the base that this mode turns off (every other base row stays). */
  disable: string[]
}

export function defineMode(mode: Mode): Mode {
  return mode
}
