import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies } from '~/db/schema'
import { db } from '~/utils/db.server'
import { getCompanySettings, updateCompanySettings } from './company.server'

let blueId: string
let sunsetId: string

beforeAll(async () => {
  const rows = await db()
    .insert(companies)
    .values([{ name: 'Blue Test Pools' }, { name: 'Sunset Test Pools', timezone: 'America/Phoenix' }])
    .returning({ id: companies.id })
  blueId = rows[0]?.id ?? ''
  sunsetId = rows[1]?.id ?? ''
})

describe('company settings', () => {
  it('reads the defaults of a new company', async () => {
    expect(await getCompanySettings(blueId)).toEqual({
      name: 'Blue Test Pools',
      email: null,
      mailingAddress: null,
      logoKey: null,
      timezone: 'America/New_York',
      defaultServiceWindow: 'flexible',
      cardPublishableKey: null,
      stripeAccountId: null,
      customerPortalUrl: null,
      serviceReportsEnabled: true,
      itemizeChemicals: true,
    })
    expect(await getCompanySettings('00000000-0000-4000-8000-000000000000')).toBeNull()
  })

  it('updates only the given company and only the given fields', async () => {
    const sunsetBefore = await db().select().from(companies).where(eq(companies.id, sunsetId))
    expect(
      await updateCompanySettings(blueId, {
        name: 'Blue Renamed',
        email: 'office@blue.test',
        mailingAddress: '12 Harbor Rd\nTampa, FL 33602',
        defaultServiceWindow: 'morning',
        cardPublishableKey: 'pk_test_1',
        stripeAccountId: 'acct_test1',
        customerPortalUrl: 'https://portal.example.com',
        itemizeChemicals: false,
      }),
    ).toBe(true)
    expect(await getCompanySettings(blueId)).toEqual({
      name: 'Blue Renamed',
      email: 'office@blue.test',
      mailingAddress: '12 Harbor Rd\nTampa, FL 33602',
      logoKey: null,
      timezone: 'America/New_York',
      defaultServiceWindow: 'morning',
      cardPublishableKey: 'pk_test_1',
      stripeAccountId: 'acct_test1',
      customerPortalUrl: 'https://portal.example.com',
      serviceReportsEnabled: true,
      itemizeChemicals: false,
    })
    expect(await db().select().from(companies).where(eq(companies.id, sunsetId))).toEqual(sunsetBefore)

    expect(await updateCompanySettings(blueId, { cardPublishableKey: null, timezone: 'America/Chicago' })).toBe(true)
    expect(await getCompanySettings(blueId)).toMatchObject({
      name: 'Blue Renamed',
      timezone: 'America/Chicago',
      cardPublishableKey: null,
      customerPortalUrl: 'https://portal.example.com',
    })
  })

  it('reports a missing company and leaves every row alone', async () => {
    const before = await db().select().from(companies)
    expect(await updateCompanySettings('00000000-0000-4000-8000-000000000000', { name: 'Ghost' })).toBe(false)
    expect(await updateCompanySettings('00000000-0000-4000-8000-000000000000', {})).toBe(false)
    expect(await db().select().from(companies)).toEqual(before)
  })

  it('refuses a blank name or an unknown service window at the database', async () => {
    await expect(updateCompanySettings(blueId, { name: '   ' })).rejects.toThrow()
    await expect(updateCompanySettings(blueId, { defaultServiceWindow: 'evening' as 'morning' })).rejects.toThrow()
    expect((await getCompanySettings(blueId))?.name).toBe('Blue Renamed')
  })
})
