import fs from 'node:fs'
import path from 'node:path'
import { projectRoot } from './db.server'
import { stylesheetUrl } from './stylesheet'

let cached: string | undefined

/** The built stylesheet's text, read once (it only changes with a new build, which restarts the server). */
export function inlineStylesheet() {
  if (cached !== undefined) return cached
  const file = path.join(projectRoot(), 'build/client', stylesheetUrl)
  // A `</style>` inside the CSS would end the element early; Tailwind never emits one, but never trust it.
  cached = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').replaceAll('</style', '<\\/style') : ''
  return cached
}
