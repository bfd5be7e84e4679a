/** The three values of a reading the portal shows. */
export type Reading = { ph: number; chlorinePpm: number; alkalinity: number }

/** A reading on one line, as the summary tile and each visit show it. */
export function chemistryText(reading: Reading) {
  return `pH ${reading.ph} · Cl ${reading.chlorinePpm} ppm · Alk ${reading.alkalinity} ppm`
}
