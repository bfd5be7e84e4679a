// What the week-board specs share: where a visit's card sits on the wide board, and a drag from one cell to another.
import type { Locator, Page } from '@playwright/test'

/** Where visit `id`'s card sits on the wide board: its row's name and its day column (0 = Monday). */
export function cellOf(page: Page, id: string) {
  return page.locator(`table [data-move-visit="${id}"]`).evaluate((button) => {
    const cell = button.closest('td') as HTMLTableCellElement
    return { row: cell.parentElement?.querySelector('th')?.textContent ?? '', day: cell.cellIndex - 1 }
  })
}

/**
 * Drags `card` onto `cell` with the mouse, the window made as tall as the page for the drag. Other specs' visits make
 * the board's rows taller than a window, and Playwright scrolls the drop cell into view after the button went down
 * but before the drag began: the card the drag then picked up was the one that had scrolled under the pointer, another
 * test's visit (a red CI run). A person's page does not scroll between pressing and moving.
 */
export async function dragToCell(page: Page, card: Locator, cell: Locator) {
  const size = page.viewportSize() ?? { width: 1280, height: 800 }
  const height = await page.evaluate(() => document.documentElement.scrollHeight)
  await page.setViewportSize({ width: size.width, height: Math.max(size.height, height) })
  await card.dragTo(cell)
  await page.setViewportSize(size)
}
