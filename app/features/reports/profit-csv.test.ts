import { describe, expect, it } from 'vitest'
import { laborBasisText } from './labor-basis'
import { placeOf } from './place'
import { profitCsvFileName, profitToCsv } from './profit-csv'

describe('profit per pool as CSV', () => {
  it('writes the rows exactly, figures as numbers (a negative margin too), a pool with no invoice says so', () => {
    const csv = profitToCsv([
      {
        label: 'Main house',
        street: '12 Palm Ave',
        city: 'Tampa',
        customerName: 'José Ruiz',
        invoiced: true,
        revenueCents: 18621,
        chemicalCostCents: 1459,
        laborCostCents: 7950,
        visits: 4,
        minutesOnSite: 180,
        approvedVisits: 4,
        marginCents: 9212,
        marginPercent: 49.5,
      },
      {
        label: null,
        street: '9 Loss Ln',
        city: null,
        customerName: 'Ann Lee',
        invoiced: true,
        revenueCents: 1000,
        chemicalCostCents: 1540,
        laborCostCents: 1325,
        visits: 1,
        minutesOnSite: 30,
        approvedVisits: 0,
        marginCents: -1865,
        marginPercent: -186.5,
      },
      {
        label: null,
        street: '2 Margin Way',
        city: null,
        customerName: '=cmd|"/c calc"!A1',
        invoiced: false,
        revenueCents: 0,
        chemicalCostCents: 1540,
        laborCostCents: 1325,
        visits: 1,
        minutesOnSite: 30,
        approvedVisits: 0,
        marginCents: null,
        marginPercent: null,
      },
    ])
    expect(csv).toBe(
      [
        '\ufeffLocation,Customer,Revenue,Chemical cost,Labor cost,Labor basis,Visits,Minutes on site,Margin,Margin %',
        '"Main house, 12 Palm Ave, Tampa",José Ruiz,186.21,14.59,79.50,from approved timesheets,4,180,92.12,49.5',
        '9 Loss Ln,Ann Lee,10.00,15.40,13.25,estimated from time on site,1,30,-18.65,-186.5',
        `2 Margin Way,"'=cmd|""/c calc""!A1",No invoice,15.40,13.25,estimated from time on site,1,30,,`,
        '',
      ].join('\r\n'),
    )
  })

  it('writes the header alone for an empty report', () => {
    expect(profitToCsv([])).toBe(
      '\ufeffLocation,Customer,Revenue,Chemical cost,Labor cost,Labor basis,Visits,Minutes on site,Margin,Margin %\r\n',
    )
  })

  it('says where the labor of each row comes from', () => {
    expect(laborBasisText({ visits: 3, approvedVisits: 3 })).toBe('from approved timesheets')
    expect(laborBasisText({ visits: 3, approvedVisits: 0 })).toBe('estimated from time on site')
    expect(laborBasisText({ visits: 3, approvedVisits: 2 })).toBe('2 of 3 visits from approved timesheets')
    expect(laborBasisText({ visits: 0, approvedVisits: 0 })).toBeNull()
  })

  it('names the place and the file', () => {
    expect(placeOf({ label: null, street: '1 Way', city: 'Tampa' })).toBe('1 Way, Tampa')
    expect(profitCsvFileName('2026-11-01', '2026-11-30')).toBe('profit-per-pool-2026-11-01-to-2026-11-30.csv')
  })
})
