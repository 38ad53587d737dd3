import { describe, expect, it } from 'vitest'
import { compareRanked, linkBoosts, parseLink, recencyMultiplier } from './scoring.ts'

const DAY = 86_400_000

describe('recencyMultiplier', () => {
  const now = Date.UTC(2026, 0, 1)
  it('gives the full bonus now and half of it one half-life ago', () => {
    expect(recencyMultiplier(now, now, 30, 0.2)).toBeCloseTo(1.2)
    expect(recencyMultiplier(now - 30 * DAY, now, 30, 0.2)).toBeCloseTo(1.1)
    expect(recencyMultiplier(now - 3000 * DAY, now, 30, 0.2)).toBeCloseTo(1)
  })

  it('treats the future as now and an unknown date as no bonus', () => {
    expect(recencyMultiplier(now + 5 * DAY, now, 30, 0.2)).toBeCloseTo(1.2)
    expect(recencyMultiplier(Number.NaN, now, 30, 0.2)).toBe(1)
  })

  it('is exactly 1 when recency is switched off', () => {
    expect(recencyMultiplier(now, now, 30, 0)).toBe(1)
  })
})

describe('parseLink', () => {
  it('splits id and type, allowing an empty or missing type', () => {
    expect(parseLink('e1|因果')).toEqual({ target: 'e1', type: '因果' })
    expect(parseLink('e1|')).toEqual({ target: 'e1', type: '' })
    expect(parseLink('e1')).toEqual({ target: 'e1', type: '' })
  })

  it('drops links without a target', () => {
    expect(parseLink('|因果')).toBeUndefined()
    expect(parseLink('  ')).toBeUndefined()
    expect(parseLink(42 as unknown as string)).toBeUndefined()
  })
})

describe('linkBoosts', () => {
  const graph: Record<string, string[]> = { a: ['x', 'y'], b: ['x', 'b'] }
  const neighbours = (id: string): string[] => graph[id] ?? []

  it('gives each neighbour a share of the strongest seed that reaches it', () => {
    const boosts = linkBoosts(
      [
        { id: 'a', score: 10 },
        { id: 'b', score: 4 },
      ],
      neighbours,
      0.5,
    )
    expect(boosts.get('x')).toEqual({ amount: 5, via: 'a' })
    expect(boosts.get('y')).toEqual({ amount: 5, via: 'a' })
  })

  it('never boosts a seed through a link to itself', () => {
    const boosts = linkBoosts([{ id: 'b', score: 4 }], neighbours, 0.5)
    expect(boosts.has('b')).toBe(false)
  })

  it('does nothing when the share is zero', () => {
    expect(linkBoosts([{ id: 'a', score: 10 }], neighbours, 0).size).toBe(0)
  })
})

describe('compareRanked', () => {
  it('orders by score, then by id', () => {
    const items = [
      { id: 'b', score: 1 },
      { id: 'a', score: 1 },
      { id: 'c', score: 2 },
    ]
    expect(items.sort(compareRanked).map((i) => i.id)).toEqual(['c', 'a', 'b'])
  })
})
