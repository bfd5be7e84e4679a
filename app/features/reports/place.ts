// A service location as one line, the same on the report's page and in its CSV. Its own module, free of
// dependencies: the page's browser bundle imports it, and must not pull in the CSV writer (Node's Buffer).

/** "Main house, 12 Palm Ave, Tampa". */
export function placeOf(row: { label: string | null; street: string; city: string | null }) {
  return [row.label, row.street, row.city].filter(Boolean).join(', ')
}
