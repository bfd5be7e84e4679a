// US English in everything the product shows (issue 37 item 6; decision 064): our companies are American. Reads
// string literals, templates and JSX text of app/ with the TypeScript parser, so comments, module paths, `sql`
// templates and stored one-word values ('cancelled', 'fibreglass') are not read as text shown to anyone.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { SERVICE_WINDOWS } from '~/utils/company-fields'
import { EQUIPMENT_KINDS, RATE_TYPES } from '~/utils/customer-fields'
import { PHOTO_LABELS } from '~/utils/photo-fields'
import { PAY_TYPES } from '~/utils/team-fields'
import { SANITIZERS, SURFACES, surfaceWord } from '~/water/targets'
import { britishSpellings } from '../helpers/british-spellings'
import { sourceFiles, visibleStrings } from '../helpers/source-text'

describe('US spelling', () => {
  it('in the text of app/ (strings and JSX text, not comments, not tests)', () => {
    const files = sourceFiles(['app'], { tests: false })
    expect(files.length).toBeGreaterThan(300)
    const found: string[] = []
    for (const file of files) {
      for (const shown of visibleStrings(file)) {
        for (const { word, us } of britishSpellings(shown.text))
          found.push(`${file}:${shown.line}: "${word}" (US: ${us})`)
      }
    }
    expect(found).toEqual([])
  })

  it('in the stored values the screens draw as words', () => {
    const shown = [
      ...SURFACES.map((surface) => surfaceWord(surface) ?? surface),
      ...SANITIZERS,
      ...EQUIPMENT_KINDS,
      ...RATE_TYPES,
      ...SERVICE_WINDOWS,
      ...PAY_TYPES,
      ...PHOTO_LABELS,
    ]
    expect(shown.flatMap((word) => britishSpellings(word).map((found) => found.word))).toEqual([])
  })

  it('reads strings and JSX text but skips comments, module paths, sql and stored values', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-spelling-'))
    try {
      const file = path.join(dir, 'sample.tsx')
      fs.writeFileSync(
        file,
        [
          "import { colour } from './colour-module'",
          '// The optimiser, in a comment.',
          "const status = 'cancelled'",
          "const query = sql`status = 'cancelled'`",
          "export const title = 'Choose a colour'",
          // A template with a placeholder, as the page would write it.
          `export const Page = () => <p title={\`Sanitiser \${status}\`}>Route optimiser {/* behaviour */}</p>`,
        ].join('\n'),
      )
      const words = visibleStrings(file).flatMap((shown) => britishSpellings(shown.text).map((found) => found.word))
      expect(words.sort()).toEqual(['Sanitiser', 'colour', 'optimiser'])
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('knows the British forms and their US ones', () => {
    expect(britishSpellings('Optimise the route; organisation, sanitiser, Fibreglass, grey, cancelled')).toEqual([
      { word: 'Optimise', us: 'optimize' },
      { word: 'organisation', us: 'organization' },
      { word: 'sanitiser', us: 'sanitizer' },
      { word: 'Fibreglass', us: 'fiberglass' },
      { word: 'grey', us: 'gray' },
      { word: 'cancelled', us: 'canceled' },
    ])
    expect(britishSpellings('A precise promise: otherwise analyses, emphasis and expertise are US words')).toEqual([])
    // Words that are also names on every object are words, not the object's own properties.
    expect(britishSpellings('constructor toString hasOwnProperty valueOf')).toEqual([])
  })
})
