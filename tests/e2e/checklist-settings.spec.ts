// Settings → "Checklist" (issue #19, docs/product.md "The visit") in Chromium: the owner adds "Clean filter" with Photo
// required, moves it up, removes an item after confirming and puts it back with Undo, and the forms work without
// JavaScript; a dispatcher reads the checklist but cannot change it. Screenshots at phone and desktop width for review.
// Runs on Sunset Pool Care (project 'company') and leaves its checklist as seeded: the 4 default items, in order.
import type { Locator, Page } from '@playwright/test'
import { capture, expect, loginAs, test } from './fixtures'

const DEFAULTS = ['Vacuum pool', 'Skim surface and empty baskets', 'Brush walls', 'Test and balance chemicals']

const checklist = (page: Page) => page.getByRole('region', { name: 'Checklist' })
const items = (section: Locator) => section.getByRole('list', { name: 'Checklist items' }).getByRole('listitem')
/** The item labels in order (each row shows its number, then the label). */
async function labels(section: Locator) {
  return (await items(section).locator(':scope > p').allTextContents()).map((text) => text.replace(/^\d+\.\s*/, ''))
}
async function expectLabels(section: Locator, expected: string[]) {
  await expect.poll(() => labels(section)).toEqual(expected)
}
/** A row's "Rename" or "Remove": a disclosure (`<summary>`), which opens its form in place and closes it again. */
const disclosure = (row: Locator, name: 'Rename' | 'Remove') => row.locator('summary').filter({ hasText: name })
const row = (section: Locator, label: string) =>
  items(section).filter({ has: section.page().getByText(label, { exact: true }) })

test.describe('Settings → Checklist', () => {
  test('the owner adds, moves, requires a photo, removes with confirmation and undoes it', async ({
    page,
    browser,
    extraHTTPHeaders,
  }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await loginAs(page, 'owner@sunsetpools.test', { open: '/app/settings' })
    const section = checklist(page)
    await expect(section.getByRole('heading', { name: 'Checklist' })).toBeVisible()
    await expectLabels(section, DEFAULTS)

    // "Add item": at the end; a second one of the same name (in another case) is refused at its field.
    const newItem = section.getByLabel('New item')
    await newItem.fill('Clean filter')
    await section.getByRole('button', { name: 'Add item' }).click()
    await expect(section.getByRole('status')).toHaveText('Added “Clean filter”.')
    await expectLabels(section, [...DEFAULTS, 'Clean filter'])
    await expect(newItem).toHaveValue('')
    await newItem.fill('clean FILTER')
    await section.getByRole('button', { name: 'Add item' }).click()
    await expect(section.getByText('“Clean filter” is already on the checklist.')).toBeVisible()
    await expect(newItem).toHaveAttribute('aria-invalid', 'true')
    await newItem.fill('')

    // "Photo required" is saved as soon as it is ticked.
    const photo = section.getByRole('checkbox', { name: 'Photo required: Clean filter' })
    await expect(photo).not.toBeChecked()
    // The box shows what the server saved: it turns checked when the answer comes back, not on the click.
    await photo.click()
    await expect(photo).toBeChecked()
    await expect(section.getByRole('status')).toHaveText('A photo is now required for “Clean filter”.')

    // "Move up" swaps it with the item above, and the keyboard stays on the same button.
    const moveUp = section.getByRole('button', { name: 'Move up: Clean filter' })
    await moveUp.click()
    await expectLabels(section, [...DEFAULTS.slice(0, 3), 'Clean filter', DEFAULTS[3] as string])
    await expect(moveUp).toBeFocused()
    await expect(section.getByRole('status')).toHaveText('Moved “Clean filter” up.')

    await page.reload()
    await expectLabels(section, [...DEFAULTS.slice(0, 3), 'Clean filter', DEFAULTS[3] as string])
    await expect(section.getByRole('checkbox', { name: 'Photo required: Clean filter' })).toBeChecked()
    await expect(section.getByRole('button', { name: 'Move up: Vacuum pool' })).toBeDisabled()
    await capture(page, testInfo, 'settings-checklist')

    // "Remove" asks first; "Keep" closes the question and nothing changes.
    const brush = row(section, 'Brush walls')
    await disclosure(brush, 'Remove').click()
    await expect(brush.getByText('Remove “Brush walls” from the checklist?')).toBeVisible()
    await expect(disclosure(brush, 'Remove')).toHaveAccessibleName('Keep Brush walls')
    await capture(page, testInfo, 'settings-checklist-remove')
    await disclosure(brush, 'Remove').click()
    await expect(brush.getByRole('button', { name: 'Yes, remove' })).toBeHidden()
    await disclosure(brush, 'Remove').click()
    await brush.getByRole('button', { name: 'Yes, remove' }).click()
    await expect(section.getByRole('status')).toContainText('Removed “Brush walls”.')
    await expectLabels(section, [
      'Vacuum pool',
      'Skim surface and empty baskets',
      'Clean filter',
      DEFAULTS[3] as string,
    ])
    const undo = section.getByRole('button', { name: 'Undo: put “Brush walls” back' })
    await expect(undo).toBeFocused()
    await undo.click()
    await expect(section.getByRole('status')).toHaveText('“Brush walls” is back on the checklist.')
    await expectLabels(section, [...DEFAULTS.slice(0, 3), 'Clean filter', DEFAULTS[3] as string])

    // Inline rename, refused when blank.
    const clean = row(section, 'Clean filter')
    await disclosure(clean, 'Rename').click()
    const name = clean.getByLabel('New name for “Clean filter”')
    await name.fill(' ')
    await clean.getByRole('button', { name: 'Save name' }).click()
    await expect(clean.getByText('Enter the checklist item.')).toBeVisible()
    await name.fill('Clean filter cartridge')
    await clean.getByRole('button', { name: 'Save name' }).click()
    await expect(section.getByRole('status')).toHaveText('Renamed to “Clean filter cartridge”.')
    await expectLabels(section, [...DEFAULTS.slice(0, 3), 'Clean filter cartridge', DEFAULTS[3] as string])

    await page.setViewportSize({ width: 1280, height: 800 })
    await capture(page, testInfo, 'settings-checklist')

    // Without JavaScript every control is a plain form: move the new item down, then remove it after confirming.
    const noJs = await browser.newContext({ javaScriptEnabled: false, extraHTTPHeaders })
    await noJs.addCookies(await page.context().cookies())
    const plain = await noJs.newPage()
    await plain.goto('/app/settings')
    const plainSection = checklist(plain)
    await plainSection.getByRole('button', { name: 'Move down: Clean filter cartridge' }).click()
    await expect(plainSection.getByRole('status')).toHaveText('Moved “Clean filter cartridge” down.')
    await expectLabels(plainSection, [...DEFAULTS, 'Clean filter cartridge'])
    const plainRow = row(plainSection, 'Clean filter cartridge')
    await plainRow.getByRole('checkbox', { name: 'Photo required: Clean filter cartridge' }).uncheck()
    await plainRow.getByRole('button', { name: 'Save Photo required: Clean filter cartridge' }).click()
    await expect(plainSection.getByRole('status')).toHaveText(
      'A photo is no longer required for “Clean filter cartridge”.',
    )
    await disclosure(row(plainSection, 'Clean filter cartridge'), 'Remove').click()
    await row(plainSection, 'Clean filter cartridge').getByRole('button', { name: 'Yes, remove' }).click()
    await expect(plainSection.getByRole('status')).toContainText('Removed “Clean filter cartridge”.')
    await expectLabels(plainSection, DEFAULTS)
    await noJs.close()

    // Sunset's checklist is as seeded again.
    await page.reload()
    await expectLabels(section, DEFAULTS)
    await expect(section.getByRole('checkbox', { checked: true })).toHaveCount(0)
  })

  test('a dispatcher sees the checklist read-only', async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await loginAs(page, 'dispatch@bluelagoon.test', { open: '/app/settings' })
    const section = checklist(page)
    await expect(section.getByText('Only owners and admins can change the checklist.')).toBeVisible()
    await expectLabels(section, DEFAULTS)
    await expect(section.getByRole('button')).toHaveCount(0)
    await expect(section.getByRole('checkbox')).toHaveCount(0)
    await expect(section.getByRole('textbox')).toHaveCount(0)
    await capture(page, testInfo, 'settings-checklist-dispatcher')
  })
})
