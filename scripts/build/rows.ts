/** A loader row as it appears in a DSH composition (agent.cordis.yml). */
export interface Row {
  id: string
  name: string
  config?: unknown
  group?: boolean
  disabled?: unknown
  inject?: unknown
  isolate?: unknown
  [key: string]: unknown
}

export function isRow(value: unknown): value is Row {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as Row).id === 'string' && typeof (value as Row).name === 'string'
  )
}

export function isGroup(row: Row): row is Row & { config: Row[] } {
  return row.group === true && Array.isArray(row.config)
}

/** Every row id, descending into groups, in document order. */
export function rowIds(rows: Row[]): string[] {
  return rows.flatMap((row) => [row.id, ...(isGroup(row) ? rowIds(row.config) : [])])
}

export function findRow(rows: Row[], id: string): Row | undefined {
  for (const row of rows) {
    if (row.id === id) return row
    if (isGroup(row)) {
      const inner = findRow(row.config, id)
      if (inner !== undefined) return inner
    }
  }
  return undefined
}
