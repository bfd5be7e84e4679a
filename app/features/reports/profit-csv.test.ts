import { describe, expect, it } from 'vitest'
import { placeOf } from './place'
import { profitCsvFileName, profitToCsv } from './profit-csv'

describe('profit per pool as CSV', () => {
  it('writes the rows exactly, figures as numbers (a negative margin too), an empty margin % left blank', () => {
    const csv = profitToCsv([
      {
        label: 'Main house',
        street: '12 Palm Ave',
        city: 'Tampa',
        customerName: 'José Ruiz',
        revenueCents: 18621,
        chemicalCostCents: 1459,
        visits: 4,
        minutesOnSite: 180,
        marginCents: 17162,
        marginPercent: 92.2,
      },
      {
        label: null,
        street: '2 Margin Way',
        city: null,
        customerName: '=cmd|"/c calc"!A1',
        revenueCents: 0,
        chemicalCostCents: 1540,
        visits: 1,
        minutesOnSite: 30,
        marginCents: -1540,
        marginPercent: null,
      },
    ])
    expect(csv).toBe(
      [
        '\ufeffLocation,Customer,Revenue,Chemical cost,Visits,Minutes on site,Margin,Margin %',
        '"Main house, 12 Palm Ave, Tampa",José Ruiz,186.21,14.59,4,180,171.62,92.2',
        `2 Margin Way,"'=cmd|""/c calc""!A1",0.00,15.40,1,30,-15.40,`,
        '',
      ].join('\r\n'),
    )
  })

  it('writes the header alone for an empty report', () => {
    expect(profitToCsv([])).toBe(
      '\ufeffLocation,Customer,Revenue,Chemical cost,Visits,Minutes on site,Margin,Margin %\r\n',
    )
  })

  it('names the place and the file', () => {
    expect(placeOf({ label: null, street: '1 Way', city: 'Tampa' })).toBe('1 Way, Tampa')
    expect(profitCsvFileName('2026-11-01', '2026-11-30')).toBe('profit-per-pool-2026-11-01-to-2026-11-30.csv')
  })
})
