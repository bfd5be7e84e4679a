// British spellings and their US forms, for the scan of what the product shows (docs/decisions/064-…): our
// companies are American. Whole words only, matched case-insensitively; "analyses" and "emphasis" are US words too,
// so only the forms that are never American are listed.

const STEMS_IZE = [
  'anonym',
  'apolog',
  'author',
  'capital',
  'categor',
  'central',
  'character',
  'custom',
  'digit',
  'emphas',
  'equal',
  'familiar',
  'final',
  'general',
  'initial',
  'item',
  'local',
  'maxim',
  'memor',
  'minim',
  'normal',
  'optim',
  'organ',
  'personal',
  'priorit',
  'random',
  'real',
  'recogn',
  'sanit',
  'serial',
  'special',
  'stabil',
  'standard',
  'summar',
  'synchron',
  'util',
  'visual',
]

/** `optimise` → `optimize`, `sanitiser` → `sanitizer`, `organisation` → `organization`. */
const IZE = new RegExp(`^(${STEMS_IZE.join('|')})is(e|es|ed|ing|er|ers|ation|ations)$`)

const WORDS: Record<string, string> = {
  aluminium: 'aluminum',
  analyse: 'analyze',
  analysed: 'analyzed',
  analysing: 'analyzing',
  behaviour: 'behavior',
  behaviours: 'behaviors',
  cancelled: 'canceled',
  cancelling: 'canceling',
  catalogue: 'catalog',
  catalogues: 'catalogs',
  centre: 'center',
  centres: 'centers',
  cheque: 'check',
  cheques: 'checks',
  colour: 'color',
  colours: 'colors',
  coloured: 'colored',
  defence: 'defense',
  enrol: 'enroll',
  enrolment: 'enrollment',
  favour: 'favor',
  favourite: 'favorite',
  favourites: 'favorites',
  fibre: 'fiber',
  fibreglass: 'fiberglass',
  fortnight: 'two weeks',
  fulfil: 'fulfill',
  grey: 'gray',
  honour: 'honor',
  instalment: 'installment',
  instalments: 'installments',
  judgement: 'judgment',
  kilometre: 'kilometer',
  kilometres: 'kilometers',
  labelled: 'labeled',
  labelling: 'labeling',
  labour: 'labor',
  levelled: 'leveled',
  licence: 'license',
  licences: 'licenses',
  litre: 'liter',
  litres: 'liters',
  metre: 'meter',
  metres: 'meters',
  modelled: 'modeled',
  modelling: 'modeling',
  neighbour: 'neighbor',
  neighbours: 'neighbors',
  neighbourhood: 'neighborhood',
  offence: 'offense',
  paralyse: 'paralyze',
  postcode: 'ZIP code',
  practise: 'practice',
  programme: 'program',
  signalled: 'signaled',
  totalled: 'totaled',
  totalling: 'totaling',
  travelled: 'traveled',
  travelling: 'traveling',
  traveller: 'traveler',
  tyre: 'tire',
  whilst: 'while',
}

/** The British words in `text`, each with its US form. */
export function britishSpellings(text: string): { word: string; us: string }[] {
  const found: { word: string; us: string }[] = []
  for (const match of text.matchAll(/[A-Za-z]+/g)) {
    const word = match[0]
    const lower = word.toLowerCase()
    const us =
      (Object.hasOwn(WORDS, lower) ? WORDS[lower] : undefined) ??
      (IZE.test(lower) ? lower.replace(/is(?=(e|es|ed|ing|er|ers|ation|ations)$)/, 'iz') : undefined)
    if (us !== undefined) found.push({ word, us })
  }
  return found
}
