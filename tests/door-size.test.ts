import { describe, expect, it } from 'vitest'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

/**
 * Issue 23: a room's door is a small surface. Each feature room's `index.ts` and `row.ts`, the
 * ground floors' `index.ts`, the libraries' doors (the store's nine, recall's pure core and its
 * build door, whale/index.ts) export at most 30 names (values and types alike, `export *`
 * counted name by name), docs/decisions/096 and 281. A door that outgrows it is exporting its
 * insides: stop exporting what only the room uses, or give the outside one function or one type
 * instead.
 */
const repo = fileURLToPath(new URL('../', import.meta.url))
const MAX_NAMES = 30
const GROUND_FLOORS = ['prompt', 'doctor']

/** The rooms as the import rules name them, so a room added there is held here too. */
function rooms(): string[] {
  const rules = readFileSync(join(repo, '.dependency-cruiser.cjs'), 'utf8')
  const list = /const ROOMS = '([^']+)'/.exec(rules)?.[1]
  if (list === undefined) throw new Error('.dependency-cruiser.cjs no longer has `const ROOMS = …`: read the rooms from where they went')
  return list.split('|')
}

/** The store's doors as the import rule lets them through (`STORE_DOORS`). */
function storeDoors(): string[] {
  const rules = readFileSync(join(repo, '.dependency-cruiser.cjs'), 'utf8')
  const list = /const STORE_DOORS = '\^memory\/\(([^)]+)\)/.exec(rules)?.[1]
  if (list === undefined) throw new Error('.dependency-cruiser.cjs no longer has `const STORE_DOORS = …`: read the doors from where they went')
  return list.split('|').map((door) => `memory/${door}.ts`)
}

const LIBRARY_DOORS = ['recall/core/index.ts', 'recall/core/build.ts', 'whale/index.ts']

const doors = [
  ...[...rooms(), ...GROUND_FLOORS].flatMap((room) => ['index', 'row'].map((door) => `${room}/${door}.ts`)),
  ...storeDoors(),
  ...LIBRARY_DOORS,
].filter((file) => existsSync(join(repo, file)))

/** Every name each door exports, as the type checker sees the module (re-exports followed). */
function exportedNames(files: readonly string[]): Map<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(join(repo, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })
  if (config === undefined) throw new Error('tsconfig.json could not be read')
  const program = ts.createProgram(
    files.map((file) => join(repo, file)),
    config.options,
  )
  const checker = program.getTypeChecker()
  const names = new Map<string, string[]>()
  for (const file of files) {
    const source = program.getSourceFile(join(repo, file))
    const module = source && checker.getSymbolAtLocation(source)
    names.set(file, module ? checker.getExportsOfModule(module).map((s) => s.name) : [])
  }
  return names
}

describe('a door exports a small surface (issue 23, docs/decisions/096)', () => {
  const names = exportedNames(doors)

  it('finds the doors of every room and ground floor', () => {
    expect(doors).toContain('worldbook/index.ts')
    expect(doors).toContain('guard/row.ts')
    expect(doors).toContain('prompt/index.ts')
    expect(doors).toContain('memory/index.ts')
    expect(doors).toContain('memory/files.ts')
    expect(doors).toContain('recall/core/build.ts')
  })

  it("hands out each of the store's names at one door only, so an import has one right place", () => {
    const doorOf = new Map<string, string>()
    for (const door of storeDoors())
      for (const name of names.get(door) ?? []) {
        expect(doorOf.get(name), `${name} is handed out by ${doorOf.get(name)} and ${door}`).toBeUndefined()
        doorOf.set(name, door)
      }
    expect(doorOf.size).toBeGreaterThan(100)
  })

  it.each(doors)('%s exports at most 30 names, and at least one', (door) => {
    const exported = names.get(door) ?? []
    // An empty list would mean the checker did not see the module, not a small door.
    expect(exported.length, `${door} exports nothing the checker can see`).toBeGreaterThan(0)
    expect(exported.length, `${door} exports ${exported.length} names (${exported.join(', ')}); at most ${MAX_NAMES}`).toBeLessThanOrEqual(MAX_NAMES)
  })
})
