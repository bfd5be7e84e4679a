// What every page says when the database cannot be reached: the React error page (components/error-page.tsx) and
// the server's own 503 page (database-unavailable.server.ts) use the same words.
export const DATABASE_UNAVAILABLE_MESSAGE = 'Pool Bud cannot reach its database right now. Try again in a moment.'
