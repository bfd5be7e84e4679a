import { describe, expect, it } from 'vitest'
import {
  type CellVisit,
  cellKey,
  cellSummary,
  clockLabel,
  dayHeader,
  formatMinutes,
  groupByCell,
  packCells,
  unpackCells,
} from './board-cells'

const visit = (id: string, over: Partial<CellVisit> = {}): CellVisit => ({
  id,
  date: '2026-11-23',
  technicianId: 'tyler',
  minutes: 30,
  state: 'open',
  ...over,
})

describe('week board cells', () => {
  it('heads a day column with its full date, year included', () => {
    expect(dayHeader('2026-11-23')).toBe('Mon, Nov 23, 2026')
    expect(dayHeader('2027-01-03')).toBe('Sun, Jan 3, 2027')
  })

  it('sends each cell’s technician and day once, and an open visit without its state; unpacking gives them back', () => {
    const visits = [
      visit('a'),
      visit('b', { state: 'completed' }),
      visit('c', { technicianId: null }),
      visit('d', { date: '2026-11-24', state: 'skipped' }),
      visit('e'),
    ]
    const cells = packCells(visits)
    expect(cells).toEqual([
      {
        technicianId: 'tyler',
        date: '2026-11-23',
        visits: [
          { id: 'a', minutes: 30 },
          { id: 'b', minutes: 30, state: 'completed' },
          { id: 'e', minutes: 30 },
        ],
      },
      { technicianId: null, date: '2026-11-23', visits: [{ id: 'c', minutes: 30 }] },
      { technicianId: 'tyler', date: '2026-11-24', visits: [{ id: 'd', minutes: 30, state: 'skipped' }] },
    ])
    expect(unpackCells(cells)).toEqual([visits[0], visits[1], visits[4], visits[2], visits[3]])
  })

  it('shows a visit’s time on the 12-hour clock, noon and midnight included', () => {
    expect(clockLabel('09:30')).toBe('9:30 AM')
    expect(clockLabel('00:05')).toBe('12:05 AM')
    expect(clockLabel('12:00')).toBe('12:00 PM')
    expect(clockLabel('16:45')).toBe('4:45 PM')
  })

  it('writes planned time in hours and minutes', () => {
    expect(formatMinutes(0)).toBe('0 min')
    expect(formatMinutes(45)).toBe('45 min')
    expect(formatMinutes(120)).toBe('2 h')
    expect(formatMinutes(130)).toBe('2 h 10 min')
  })

  it('counts every visit of a cell but plans no time for a skipped one', () => {
    const cell = [
      visit('a', { minutes: 40 }),
      visit('b', { minutes: 30, state: 'completed' }),
      visit('c', { minutes: 60 }),
      visit('d', { minutes: 45, state: 'skipped' }),
    ]
    expect(cellSummary(cell)).toBe('4 visits · 2 h 10 min')
    expect(cellSummary([visit('e', { minutes: 45 })])).toBe('1 visit · 45 min')
  })

  it('groups visits by technician (or Unassigned) and day, keeping their order', () => {
    const cells = groupByCell([
      visit('a'),
      visit('b', { technicianId: null }),
      visit('c'),
      visit('d', { date: '2026-11-24' }),
    ])
    expect(cells.get(cellKey('tyler', '2026-11-23'))?.map((v) => v.id)).toEqual(['a', 'c'])
    expect(cells.get('unassigned|2026-11-23')?.map((v) => v.id)).toEqual(['b'])
    expect(cells.get(cellKey('tyler', '2026-11-24'))?.map((v) => v.id)).toEqual(['d'])
  })
})
