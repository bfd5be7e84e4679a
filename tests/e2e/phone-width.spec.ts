// Issue #19 item 6, phone first everywhere: every page, opened by the person who uses it on a 360 × 740 phone,
// fits the screen's width (no sideways scrolling), has no serious or critical axe violations (contrast among them),
// and every control on it is a touch target of at least 44 × 44 px.
//
// The touch-target rule (WCAG 2.5.5's 44 px, with its exceptions): every visible link, button, summary, select,
// text field and text area, and the label of every checkbox and radio (the label is what a finger taps), is at least
// 44 px tall and 44 px wide. Exempt are links inside running text (a link whose block also holds other words: WCAG's
// "inline" exception), screen-reader-only elements (skip links show only on focus), and the footer's site map.
// Read-only but for the plan forms, which work on a customer of their own: it runs beside every other project.
import { randomBytes } from 'node:crypto'
import AxeBuilder from '@axe-core/playwright'
import type { Page, TestInfo } from '@playwright/test'
import { capture, expect, gotoHydrated, test, waitForHydration } from './fixtures'

const PHONE = { width: 360, height: 740 }
const MIN_TARGET = 44

type PhonePage = {
  name: string
  /** The page opened first: signing in opens it directly, instead of the landing page and then it. */
  path: string
  /** What is done on it before the checks, if anything: a link followed, a button pressed. */
  follow?: (page: Page) => Promise<unknown>
}

/** `path` itself. */
const at = (name: string, path: string): PhonePage => ({ name, path })

/** Opens `from`, then the first link on it whose address matches `href` (a record whose id the spec does not know). */
const via = (name: string, from: string, href: RegExp): PhonePage => ({
  name,
  path: from,
  follow: async (page) => {
    const hrefs = await page
      .locator('main a[href]')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''))
    const target = hrefs.find((candidate) => href.test(candidate))
    if (!target) throw new Error(`no link matching ${href} on ${from}`)
    await gotoHydrated(page, target)
  },
})

const VISIT = /^\/app\/visits\/[^/]+$/
const CUSTOMER = /^\/app\/customers\/(?!new$|import$|export\.csv$|picker$)[^/?]+$/

const PERSONAS: { who: string | null; pages: PhonePage[] }[] = [
  {
    who: null,
    pages: [
      at('landing', '/'),
      at('features', '/features'),
      at('services', '/services'),
      at('pricing', '/pricing'),
      at('about', '/about'),
      at('login', '/login'),
      at('sign-up', '/login?mode=signup'),
      at('forgot-password', '/forgot-password'),
    ],
  },
  {
    who: 'owner@bluelagoon.test',
    pages: [
      at('business dashboard', '/app'),
      at('customers', '/app/customers'),
      via('customer record', '/app/customers', CUSTOMER),
      at('billing', '/app/billing'),
      via('invoice', '/app/billing', /^\/app\/invoices\/[^/]+$/),
      at('new customer', '/app/customers/new'),
      at('customer import', '/app/customers/import'),
      at('inventory', '/app/inventory'),
      at('profit per pool', '/app/reports/profit'),
      at('settings', '/app/settings'),
      at('change prices', '/app/billing/prices'),
      at('team', '/app/team'),
      at('timesheets', '/app/timesheets'),
      at('account', '/app/account'),
    ],
  },
  {
    who: 'office@bluelagoon.test',
    pages: [at('operations dashboard', '/app')],
  },
  {
    who: 'dispatch@bluelagoon.test',
    pages: [
      at('dispatch dashboard', '/app'),
      at('dispatch', '/app/dispatch'),
      at('schedule board', '/app/schedule'),
      // The board's second row (the first technician), reached by its "Next →".
      {
        name: 'schedule board, next row',
        path: '/app/schedule',
        follow: async (page) => {
          await page.getByRole('navigation', { name: 'Technicians' }).getByRole('link', { name: 'Next →' }).click()
          await expect(page.getByRole('link', { name: '← Previous' })).toBeVisible()
          await expect(page.getByRole('rowheader', { name: 'Unassigned' })).toBeHidden()
        },
      },
      // A cell's "Route"; the day's "Balance the day", in the column's header, comes first on the page.
      via('route day', '/app/schedule', /^\/app\/schedule\/(?!balance\/)[^/]+\/\d{4}-\d{2}-\d{2}$/),
      via('balance the day', '/app/schedule', /^\/app\/schedule\/balance\/\d{4}-\d{2}-\d{2}$/),
      via('visit (office)', '/app/schedule', VISIT),
    ],
  },
  {
    who: 'tech@bluelagoon.test',
    pages: [
      at('Today', '/app'),
      at('This week', '/app?tab=week'),
      via('visit (technician)', '/app?tab=week', VISIT),
      at('account (technician)', '/app/account'),
    ],
  },
  {
    who: 'customer@bluelagoon.test',
    pages: [
      // Signed in, /login sends the customer to their own portal.
      at('portal', '/login'),
      via('portal visit report', '/login', /^\/customer\/[^/]+\/visits\/[^/]+$/),
      via('portal invoice', '/login', /^\/customer\/[^/]+\/invoices\/[^/]+$/),
    ],
  },
  {
    who: 'admin@poolbud.test',
    pages: [at('staff setup', '/staff/setup')],
  },
]

/** The controls on the page smaller than MIN_TARGET in either direction, described for the failure message. */
function smallTargets(page: Page) {
  return page.evaluate((min) => {
    const controls = document.querySelectorAll<HTMLElement>(
      'a[href], button, summary, select, textarea, input:not([type="hidden"]), [role="button"], [role="tab"]',
    )
    const small: string[] = []
    const seen = new Set<Element>()
    for (const control of controls) {
      if (control.closest('footer, [role="contentinfo"], [aria-hidden="true"], [inert]')) continue
      // A checkbox or radio is tapped through its label.
      const input = control instanceof HTMLInputElement ? control : null
      const target =
        input && (input.type === 'checkbox' || input.type === 'radio') ? (input.labels?.[0] ?? input) : control
      if (seen.has(target)) continue
      seen.add(target)
      const style = getComputedStyle(target)
      // Screen-reader-only elements (Tailwind's sr-only clips them away) are not tapped.
      const clipped = style.clipPath === 'inset(50%)' || style.clip === 'rect(0px, 0px, 0px, 0px)'
      const hidden = clipped || style.visibility === 'hidden' || !target.checkVisibility()
      let box = target.getBoundingClientRect()
      if (hidden || box.width <= 1 || box.height <= 1 || box.right <= 0 || box.left >= innerWidth) continue
      // A stretched link (an absolute ::after over its card, "after:absolute after:inset-0") is tapped anywhere on
      // the card: the card, its pseudo-element's containing block, is the target.
      const after = getComputedStyle(target, '::after')
      if (
        after.position === 'absolute' &&
        after.content !== 'none' &&
        style.position === 'static' &&
        target.offsetParent
      ) {
        box = target.offsetParent.getBoundingClientRect()
      }
      if (target.tagName === 'A' && style.display === 'inline') {
        // WCAG's inline exception: a link inside a sentence or block of text.
        let block = target.parentElement
        while (block && getComputedStyle(block).display === 'inline') block = block.parentElement
        // The text on the link's lines: its block's text outside nested blocks, which are lines of their own.
        const lineText = (node: Node): string =>
          node instanceof Element
            ? getComputedStyle(node).display === 'inline' || node === block
              ? [...node.childNodes].map(lineText).join('')
              : ''
            : (node.textContent ?? '')
        const words = (text: string) => text.replace(/\s+/g, '').length
        if (block && words(lineText(block)) > words(target.textContent ?? '')) continue
      }
      if (box.height >= min - 0.5 && box.width >= min - 0.5) continue
      const label = (target.getAttribute('aria-label') ?? target.textContent ?? '').trim().replace(/\s+/g, ' ')
      small.push(
        `${target.tagName.toLowerCase()} "${label.slice(0, 40)}" ${Math.round(box.width)}×${Math.round(box.height)}`,
      )
    }
    return small
  }, MIN_TARGET)
}

/** The three checks on the page as it is now, reported together; then a screenshot for review. */
async function checkPhonePage(page: Page, testInfo: TestInfo, name: string) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth)
  expect.soft(width, 'page width (no sideways scrolling)').toBeLessThanOrEqual(PHONE.width)

  const { violations } = await new AxeBuilder({ page }).analyze()
  const serious = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
  expect.soft(serious, 'serious or critical axe violations').toEqual([])

  expect.soft(await smallTargets(page), `controls under ${MIN_TARGET} px`).toEqual([])

  await capture(page, testInfo, `phone-${name.replace(/\W+/g, '-')}`)
}

for (const { who, pages } of PERSONAS) {
  test.describe(who ?? 'a visitor', () => {
    test.use({ viewport: PHONE })

    for (const phonePage of pages) {
      test(`${phonePage.name} fits a 360 px phone, passes axe and has 44 px targets`, async ({
        page,
        loginAs,
      }, testInfo) => {
        if (who) await loginAs(page, who, { open: phonePage.path })
        else await gotoHydrated(page, phonePage.path)
        await phonePage.follow?.(page)
        await expect(page.locator('main')).toBeVisible()
        await checkPhonePage(page, testInfo, `${(who ?? 'visitor').split('@')[0]}-${phonePage.name}`)
      })
    }
  })
}

// "Add service plan", "Edit plan" (with the question it asks before removing visits) and "Pause plan" on a customer
// of the test's own: the seeded customers have no plan, so this one writes a customer and a plan (nothing else
// reads them) and leaves them as they are.
test.describe('the plan forms on a phone', () => {
  test.use({ viewport: PHONE })

  test('Add service plan, Edit plan asking first, and Pause plan', async ({ page, loginAs }, testInfo) => {
    // No live updates: a change elsewhere in the company reloads the record, and the question would go with it.
    await page.context().route('**/app/events', (route) => route.abort())
    const name = `Phone Plan ${randomBytes(3).toString('hex')}`
    await loginAs(page, 'dispatch@bluelagoon.test', { open: '/app/customers/new' })
    await page.getByLabel('Name', { exact: true }).fill(name)
    await page.getByLabel('Service address').fill('5 Palm Ave')
    await page.getByLabel('City').fill('Tampa')
    await page.getByLabel('State').fill('FL')
    await page.getByRole('button', { name: 'Add customer' }).click()
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
    await page.getByRole('link', { name: /^Add service plan/ }).click()
    await expect(page.getByRole('button', { name: 'Add service plan' })).toBeVisible()
    await waitForHydration(page)
    await page.getByLabel('Technician').selectOption({ label: 'Tyler Brooks' })
    await page.getByLabel('Rate', { exact: true }).fill('85')
    await checkPhonePage(page, testInfo, 'dispatch-add-service-plan')
    await page.getByRole('button', { name: 'Add service plan' }).click()
    await expect(page.getByText(/Service plan added\./)).toBeVisible()

    await page.getByRole('link', { name: /^Edit plan/ }).click()
    await expect(page.getByRole('button', { name: 'Save plan' })).toBeVisible()
    await waitForHydration(page)
    await page.getByLabel('Frequency').selectOption('4')
    await page.getByRole('button', { name: 'Save plan' }).click()
    await expect(page.getByText(/\d+ future visits? will be removed/)).toBeVisible()
    await checkPhonePage(page, testInfo, 'dispatch-edit-plan-question')
    await page.getByRole('link', { name: 'Keep plan as it is' }).click()

    await page.getByRole('link', { name: /^Pause plan/ }).click()
    await expect(page.getByLabel('Resume on')).toBeVisible()
    await checkPhonePage(page, testInfo, 'dispatch-pause-plan')
  })
})

test.describe('the menus on a phone', () => {
  test.use({ viewport: PHONE })

  test("the staff app's menu, open (the owner has the most links)", async ({ page, loginAs }, testInfo) => {
    await loginAs(page, 'owner@bluelagoon.test', { open: '/app' })
    await page.getByRole('banner').getByText('Menu').click()
    await expect(page.getByRole('navigation', { name: 'App' }).getByRole('link', { name: 'Settings' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'My Account' })).toBeVisible()
    await checkPhonePage(page, testInfo, 'owner-menu-open')
  })

  test("the public site's menu, open", async ({ page }, testInfo) => {
    await gotoHydrated(page, '/')
    await page.getByRole('button', { name: 'Menu' }).click()
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible()
    await checkPhonePage(page, testInfo, 'visitor-menu-open')
  })
})
