import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies } from '~/db/schema'
import { db } from '~/utils/db.server'
import { formRequest, pageRequest, routeArgs, settle, statusOf } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action, loader } from './settings'

const post = (cookie: string, fields: Record<string, string>) => formRequest('/app/settings', fields, cookie)

const reasonOf = (thrown: unknown) => (thrown as { data?: { reason?: string } })?.data?.reason

type Loaded = {
  settings: {
    name: string
    timezone: string
    defaultServiceWindow: string
    cardPublishableKey: string
    stripeAccountId: string
    customerPortalUrl: string
    serviceReportsEnabled: boolean
    itemizeChemicals: boolean
  }
  canSave: boolean
  canEditBilling: boolean
  timezones: string[]
}

async function load(cookie: string) {
  return (await loader(routeArgs(pageRequest('/app/settings', cookie)))) as unknown as Loaded
}

/** An action's reply: its status, notice and every Conform error message. */
function reply(result: unknown) {
  const value = result as
    | {
        data: { notice: string | null; result: { error?: Record<string, string[] | null> } }
        init?: { status?: number }
      }
    | { notice: string | null; result: { error?: Record<string, string[] | null> } }
  const body = 'data' in value ? value.data : value
  const code = 'data' in value ? (value.init?.status ?? 200) : 200
  const errors = Object.values(body.result.error ?? {})
    .flat()
    .filter(Boolean)
  return { status: code, notice: body.notice, errors }
}

async function companyRow(name: string) {
  const [row] = await db().select().from(companies).where(eq(companies.name, name))
  return row
}

const BLUE = 'Blue Lagoon Pool Co.'
const SUNSET = 'Sunset Pool Care'

let owner: string
let admin: string
let dispatcher: string
let tech: string
let sunsetOwner: string

beforeAll(async () => {
  await useDemoData()
  owner = await signInAs('owner@bluelagoon.test')
  admin = await signInAs('office@bluelagoon.test')
  dispatcher = await signInAs('dispatch@bluelagoon.test')
  tech = await signInAs('tech@bluelagoon.test')
  sunsetOwner = await signInAs('owner@sunsetpools.test')
})

describe('settings page', () => {
  it("shows the company's settings with each role's abilities", async () => {
    const ownerPage = await load(owner)
    expect(ownerPage.settings).toEqual({
      name: BLUE,
      timezone: 'America/New_York',
      defaultServiceWindow: 'morning',
      cardPublishableKey: '',
      stripeAccountId: 'acct_1BlueLagoonDemo',
      customerPortalUrl: '',
      serviceReportsEnabled: true,
      itemizeChemicals: true,
      email: '',
      mailingAddress: '',
    })
    expect(ownerPage).toMatchObject({ canSave: true, canEditBilling: true })
    expect(ownerPage.timezones).toContain('America/Phoenix')
    expect(await load(admin)).toMatchObject({ canSave: true, canEditBilling: false })
    expect(await load(dispatcher)).toMatchObject({ canSave: false, canEditBilling: false })
    expect((await load(sunsetOwner)).settings).toMatchObject({ name: SUNSET, timezone: 'America/Phoenix' })
  })

  it("answers a technician with the 403 'no-access' card", async () => {
    const { thrown } = await settle(loader(routeArgs(pageRequest('/app/settings', tech))))
    expect(statusOf(thrown)).toBe(403)
    expect((thrown as { data: { reason: string } }).data.reason).toBe('no-access')
  })

  it('sends visitors to log in', async () => {
    const { thrown } = await settle(loader(routeArgs(pageRequest('/app/settings'))))
    expect(thrown).toHaveRedirect('/login?redirectTo=%2Fapp%2Fsettings')
  })
})

describe('saving settings', () => {
  it('lets the owner save every field, and a reload returns them', async () => {
    const result = await action(
      routeArgs(
        post(owner, {
          name: '  Blue Lagoon Pools  ',
          email: ' Office@BlueLagoon.test ',
          mailingAddress: '12 Harbor Road\nTampa, FL 33602',
          timezone: 'America/Chicago',
          defaultServiceWindow: 'morning',
          cardPublishableKey: ' pk_test_abc123XYZ ',
          customerPortalUrl: 'https://portal.bluelagoon.test/login',
          // A ticked checkbox posts 'on'; an unticked one (itemizeChemicals) is absent.
          serviceReportsEnabled: 'on',
        }),
      ),
    )
    expect(reply(result)).toEqual({ status: 200, notice: 'Settings saved.', errors: [] })
    expect((await load(owner)).settings).toEqual({
      name: 'Blue Lagoon Pools',
      timezone: 'America/Chicago',
      defaultServiceWindow: 'morning',
      cardPublishableKey: 'pk_test_abc123XYZ',
      // Not posted: kept as it was.
      stripeAccountId: 'acct_1BlueLagoonDemo',
      customerPortalUrl: 'https://portal.bluelagoon.test/login',
      serviceReportsEnabled: true,
      itemizeChemicals: false,
      email: 'office@bluelagoon.test',
      mailingAddress: '12 Harbor Road\nTampa, FL 33602',
    })
  })

  it('saves blank optional fields as null', async () => {
    const result = await action(
      routeArgs(
        post(owner, {
          name: 'Blue Lagoon Pools',
          timezone: 'America/Chicago',
          defaultServiceWindow: 'afternoon',
          cardPublishableKey: '  ',
          customerPortalUrl: '',
        }),
      ),
    )
    expect(reply(result).status).toBe(200)
    expect(await companyRow('Blue Lagoon Pools')).toMatchObject({
      defaultServiceWindow: 'afternoon',
      cardPublishableKey: null,
      customerPortalUrl: null,
    })
  })

  it('refuses invalid values and changes nothing', async () => {
    const before = await companyRow('Blue Lagoon Pools')
    const valid = {
      name: 'Changed Name',
      timezone: 'America/Chicago',
      defaultServiceWindow: 'morning',
      cardPublishableKey: '',
      customerPortalUrl: '',
    }
    const cases: Array<[Record<string, string>, string]> = [
      [{ timezone: 'Mars/Olympus_Mons' }, 'Choose a timezone from the list.'],
      [{ timezone: '' }, 'Choose a timezone.'],
      [{ name: '   ' }, 'Company name is required.'],
      [{ name: 'x'.repeat(121) }, 'Use at most 120 characters.'],
      [{ defaultServiceWindow: 'evening' }, 'Choose a default service window.'],
      [{ cardPublishableKey: 'sk_live_secret' }, 'Enter a publishable key that starts with pk_live_ or pk_test_.'],
      [{ customerPortalUrl: 'http://portal.example.com' }, 'Enter a full https:// address.'],
      [{ customerPortalUrl: 'javascript:alert(1)' }, 'Enter a full https:// address.'],
    ]
    for (const [override, message] of cases) {
      const result = reply(await action(routeArgs(post(owner, { ...valid, ...override }))))
      expect(result.status, JSON.stringify(override)).toBe(400)
      expect(result.errors).toContain(message)
    }
    expect(await companyRow('Blue Lagoon Pools')).toEqual(before)
  })

  it('lets an admin save the name but not the card-provider key', async () => {
    await action(
      routeArgs(
        post(owner, {
          name: 'Blue Lagoon Pools',
          timezone: 'America/New_York',
          defaultServiceWindow: 'flexible',
          cardPublishableKey: 'pk_live_owner1',
          customerPortalUrl: '',
        }),
      ),
    )
    const before = await companyRow('Blue Lagoon Pools')
    // The field is disabled for admins: posting a change anyway is answered with the 403 card.
    const refused = await settle(
      action(
        routeArgs(
          post(admin, {
            name: 'Admin Renamed',
            timezone: 'America/Denver',
            defaultServiceWindow: 'morning',
            cardPublishableKey: 'pk_live_admin2',
            customerPortalUrl: '',
          }),
        ),
      ),
    )
    expect(statusOf(refused.thrown)).toBe(403)
    expect(reasonOf(refused.thrown)).toBe('no-access')
    // Clearing the key is a change too.
    const cleared = await settle(
      action(
        routeArgs(
          post(admin, {
            name: 'Admin Renamed',
            timezone: 'America/New_York',
            defaultServiceWindow: 'flexible',
            cardPublishableKey: '',
          }),
        ),
      ),
    )
    expect(statusOf(cleared.thrown)).toBe(403)
    expect(await companyRow('Blue Lagoon Pools')).toEqual(before)

    // The disabled card field is not posted (or posted unchanged): the rest saves.
    for (const extra of [{}, { cardPublishableKey: 'pk_live_owner1' }] as Array<Record<string, string>>) {
      const saved = reply(
        await action(
          routeArgs(
            post(admin, {
              name: 'Admin Renamed',
              timezone: 'America/Denver',
              defaultServiceWindow: 'morning',
              customerPortalUrl: 'https://pay.bluelagoon.test',
              ...extra,
            }),
          ),
        ),
      )
      expect(saved).toEqual({ status: 200, notice: 'Settings saved.', errors: [] })
    }
    expect(await companyRow('Admin Renamed')).toMatchObject({
      id: before?.id,
      timezone: 'America/Denver',
      defaultServiceWindow: 'morning',
      cardPublishableKey: 'pk_live_owner1',
      customerPortalUrl: 'https://pay.bluelagoon.test',
    })
  })

  it('only the owner sets the card-provider account id (F12: not platform staff, not admins)', async () => {
    const base = { name: 'Admin Renamed', timezone: 'America/Denver', defaultServiceWindow: 'morning' }
    const invalid = reply(await action(routeArgs(post(owner, { ...base, stripeAccountId: 'sk_live_secret' }))))
    expect(invalid.errors).toContain('Enter an account id that starts with acct_.')
    const saved = reply(await action(routeArgs(post(owner, { ...base, stripeAccountId: ' acct_OwnerSet9 ' }))))
    expect(saved.status).toBe(200)
    expect((await load(owner)).settings.stripeAccountId).toBe('acct_OwnerSet9')
    const refused = await settle(action(routeArgs(post(admin, { ...base, stripeAccountId: 'acct_AdminSet1' }))))
    expect(statusOf(refused.thrown)).toBe(403)
    expect(reasonOf(refused.thrown)).toBe('no-access')
    expect((await companyRow('Admin Renamed'))?.stripeAccountId).toBe('acct_OwnerSet9')
  })

  it('answers a dispatcher or a technician with 403 and saves nothing', async () => {
    const before = await companyRow('Admin Renamed')
    for (const cookie of [dispatcher, tech]) {
      const { thrown } = await settle(
        action(
          routeArgs(
            post(cookie, {
              name: 'Hijacked',
              timezone: 'America/New_York',
              defaultServiceWindow: 'flexible',
              cardPublishableKey: '',
              customerPortalUrl: '',
            }),
          ),
        ),
      )
      expect(statusOf(thrown)).toBe(403)
    }
    expect(await companyRow('Admin Renamed')).toEqual(before)
    expect(await companyRow('Hijacked')).toBeUndefined()
  })

  it("only ever touches the signed-in owner's own company", async () => {
    const blueBefore = await companyRow('Admin Renamed')
    const result = await action(
      routeArgs(
        post(sunsetOwner, {
          companyId: blueBefore?.id ?? '',
          id: blueBefore?.id ?? '',
          name: 'Sunset Pool Care & Spa',
          timezone: 'America/Phoenix',
          defaultServiceWindow: 'afternoon',
          cardPublishableKey: 'pk_test_sunset',
          customerPortalUrl: 'https://sunset.example.com',
        }),
      ),
    )
    expect(reply(result).status).toBe(200)
    expect(await companyRow('Admin Renamed')).toEqual(blueBefore)
    expect(await companyRow('Sunset Pool Care & Spa')).toMatchObject({
      cardPublishableKey: 'pk_test_sunset',
      defaultServiceWindow: 'afternoon',
    })
    expect((await load(owner)).settings.name).toBe('Admin Renamed')
    expect((await load(sunsetOwner)).settings.name).toBe('Sunset Pool Care & Spa')
  })
})

describe('Settings → Checklist', () => {
  type ChecklistAnswer = {
    data: {
      checklist: {
        intent: string
        itemId: string | null
        tone: string
        message: string
        result?: { error?: Record<string, string[] | null> }
        undo?: { itemId: string; label: string }
      }
    }
    init: { status?: number } | null
  }
  const send = async (cookie: string, fields: Record<string, string>) => {
    const answer = (await action(routeArgs(post(cookie, fields)))) as unknown as ChecklistAnswer
    return { status: answer.init?.status ?? 200, ...answer.data.checklist }
  }
  const checklistOf = async (cookie: string) =>
    (await loader(routeArgs(pageRequest('/app/settings', cookie)))) as unknown as {
      checklist: { id: string; label: string; photoRequired: boolean }[]
      canSave: boolean
    }

  it('lets the owner add an item, refuses a duplicate at its field, and offers Undo after Remove', async () => {
    const added = await send(sunsetOwner, { intent: 'checklist-add', label: 'Clean filter' })
    expect(added).toMatchObject({ status: 200, tone: 'success', message: 'Added “Clean filter”.' })
    const again = await send(sunsetOwner, { intent: 'checklist-add', label: 'clean FILTER' })
    expect(again.status).toBe(409)
    expect(again.result?.error?.label).toEqual(['“Clean filter” is already on the checklist.'])
    const blank = await send(sunsetOwner, { intent: 'checklist-add', label: '  ' })
    expect(blank.status).toBe(400)
    expect(blank.result?.error?.label).toEqual(['Enter the checklist item.'])

    const id = added.itemId ?? ''
    const removed = await send(sunsetOwner, { intent: 'checklist-remove', itemId: id })
    expect(removed).toMatchObject({ message: 'Removed “Clean filter”.', undo: { itemId: id, label: 'Clean filter' } })
    expect((await checklistOf(sunsetOwner)).checklist.map((item) => item.label)).not.toContain('Clean filter')
    await send(sunsetOwner, { intent: 'checklist-restore', itemId: id })
    expect((await checklistOf(sunsetOwner)).checklist.at(-1)).toEqual({
      id,
      label: 'Clean filter',
      photoRequired: false,
    })
  })

  it('shows the dispatcher the checklist without the right to change it, and refuses them', async () => {
    const page = await checklistOf(dispatcher)
    expect(page.canSave).toBe(false)
    expect(page.checklist.map((item) => item.label)).toContain('Brush walls')
    const { thrown } = await settle(action(routeArgs(post(dispatcher, { intent: 'checklist-add', label: 'Sneaky' }))))
    expect(statusOf(thrown)).toBe(403)
    expect((await checklistOf(owner)).checklist.map((item) => item.label)).not.toContain('Sneaky')
  })

  it("answers another company's item as not found and leaves it alone", async () => {
    const blueItem = (await checklistOf(owner)).checklist[0]
    const answer = await send(sunsetOwner, {
      intent: 'checklist-photo',
      itemId: blueItem?.id ?? '',
      photoRequired: 'on',
    })
    expect(answer).toMatchObject({ status: 404, tone: 'error', message: 'That checklist item does not exist.' })
    expect((await checklistOf(owner)).checklist[0]).toEqual(blueItem)
  })
})
