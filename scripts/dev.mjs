// `npm run dev`: the same Express server as production (server.mjs), with Vite in middleware mode serving the
// sources and hot reload, so every request guard (body cap, cross-origin check, headers) applies in development too.
process.env.NODE_ENV = 'development'
await import('../server.mjs')
