import { existsSync } from 'node:fs'

/** The system Chromium (Debian's `chromium` package): the audits and product shots, and the tests where no shell is. */
export const CHROMIUM_PATH = '/usr/bin/chromium'

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell'

/**
 * The browser the end-to-end tests drive: Debian's `chromium-headless-shell`, the same Blink and V8 as `chromium`
 * without the desktop browser around them (what Playwright itself runs for headless tests), where it is installed;
 * CI installs it. The same specs took about 30 % less processor time in it (decision 025). Elsewhere, `chromium`.
 */
export const TEST_CHROMIUM_PATH = existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM_PATH

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]
