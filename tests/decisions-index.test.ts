import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/**
 * The decisions' index (docs/decisions/README.md) drifted: nineteen files had no row. Every
 * decision file has exactly one row, every row links to a file that is there, and no number names
 * two files.
 */
const folder = fileURLToPath(new URL('../docs/decisions/', import.meta.url))
const files = readdirSync(folder).filter((name) => /^\d{3}-.+\.md$/.test(name))
const linked = [...readFileSync(`${folder}README.md`, 'utf8').matchAll(/^\| \[(\d{3})\]\((\d{3}-[^)]+\.md)\) \|/gm)].map((m) => ({
  number: m[1]!,
  file: m[2]!,
}))

describe('the decisions index', () => {
  it('reads the rows of the index', () => {
    expect(linked.length).toBeGreaterThan(200)
  })

  it('has a row for every decision file', () => {
    const rows = new Set(linked.map((row) => row.file))
    expect(files.filter((name) => !rows.has(name))).toEqual([])
  })

  it('links only files that are there, each once, under its own number', () => {
    const present = new Set(files)
    expect(linked.filter((row) => !present.has(row.file) || !row.file.startsWith(`${row.number}-`))).toEqual([])
    const seen = linked.map((row) => row.file)
    expect(seen.filter((file, i) => seen.indexOf(file) !== i)).toEqual([])
  })

  it('gives no number to two files', () => {
    const numbers = files.map((name) => name.slice(0, 3))
    expect(numbers.filter((n, i) => numbers.indexOf(n) !== i)).toEqual([])
  })
})
