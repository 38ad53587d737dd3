// Which memories were written next to each other: per UTC day, the documents in
// (time, id) order. A question often matches one side of an exchange while the
// answer sits in the next line ("What did you paint?" → "A sunrise over the lake"),
// so a strong hit lends part of its score to its neighbours in time (see
// `neighbourShare`). Kept per day so that an add or a remove touches one short list.

import { DAY_MS } from './time-range.ts'

interface Placed {
  slot: number
  atMs: number
  id: string
}

function before(a: Placed, b: Placed): boolean {
  return a.atMs < b.atMs || (a.atMs === b.atMs && a.id < b.id)
}

const order = (a: Placed, b: Placed): number => (before(a, b) ? -1 : before(b, a) ? 1 : 0)

export class Timeline {
  private readonly days = new Map<number, Placed[]>()
  /** Days placed out of order since they were last read: sorted once when next read, not on every place. */
  private readonly unsorted = new Set<number>()

  /**
   * Place a document; one with an unparsable time has no neighbours. A cache loads in id order, which is time
   * order for entries, so most places are at the end; a day of 100,000 imported entries is not (their ids are
   * random after the same time), and is sorted when it is next read instead of one insertion at a time.
   */
  add(slot: number, atMs: number, id: string): void {
    if (!Number.isFinite(atMs)) return
    const key = Math.floor(atMs / DAY_MS)
    let day = this.days.get(key)
    if (day === undefined) this.days.set(key, (day = []))
    const placed = { slot, atMs, id }
    if (day.length > 0 && !before(day[day.length - 1]!, placed)) this.unsorted.add(key)
    day.push(placed)
  }

  /** The documents of a day, in (time, id) order. */
  private day(key: number): Placed[] | undefined {
    const day = this.days.get(key)
    if (day !== undefined && this.unsorted.delete(key)) day.sort(order)
    return day
  }

  remove(slot: number, atMs: number): void {
    if (!Number.isFinite(atMs)) return
    const key = Math.floor(atMs / DAY_MS)
    const day = this.days.get(key)
    const at = day?.findIndex((p) => p.slot === slot) ?? -1
    if (day === undefined || at === -1) return
    // Taking one out keeps the others' order, sorted or not.
    day.splice(at, 1)
    if (day.length === 0) {
      this.days.delete(key)
      this.unsorted.delete(key)
    }
  }

  /** The `span` documents just before and just after `slot` on its day, each at most `windowMs` away. */
  neighbours(slot: number, atMs: number, windowMs: number, span = 1): number[] {
    if (!Number.isFinite(atMs)) return []
    const day = this.day(Math.floor(atMs / DAY_MS))
    const at = day?.findIndex((p) => p.slot === slot) ?? -1
    if (day === undefined || at === -1) return []
    const out: number[] = []
    for (let d = 1; d <= span; d++) {
      for (const other of [day[at - d], day[at + d]]) {
        if (other !== undefined && Math.abs(other.atMs - atMs) <= windowMs) out.push(other.slot)
      }
    }
    return out
  }

  /** The documents dated in [fromMs, toMs), at most `max` of them, latest first. */
  between(fromMs: number, toMs: number, max: number): number[] {
    const out: number[] = []
    for (let key = Math.floor((toMs - 1) / DAY_MS); key >= Math.floor(fromMs / DAY_MS) && out.length < max; key--) {
      const day = this.day(key)
      if (day === undefined) continue
      for (let i = day.length - 1; i >= 0 && out.length < max; i--) {
        const placed = day[i]!
        if (placed.atMs >= fromMs && placed.atMs < toMs) out.push(placed.slot)
      }
    }
    return out
  }

  /** How many documents are dated in [fromMs, toMs). */
  count(fromMs: number, toMs: number): number {
    let n = 0
    for (let key = Math.floor(fromMs / DAY_MS); key <= Math.floor((toMs - 1) / DAY_MS); key++) {
      const day = this.day(key)
      if (day === undefined) continue
      // Only the first and the last day can hold documents outside the range.
      if (day[0]!.atMs >= fromMs && day[day.length - 1]!.atMs < toMs) n += day.length
      else for (const placed of day) if (placed.atMs >= fromMs && placed.atMs < toMs) n++
    }
    return n
  }
}
