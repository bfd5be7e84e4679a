// What `~/app.css?url` gives under Vitest (vitest.config.ts): Vitest builds no stylesheet, and Vite's empty answer
// would render `<link href="">`. A name as long as the build's hashed one keeps a page's measured weight true
// (app/routes/app/schedule-weight.test.ts). An alias, not a `vi.mock`: files share their worker's modules
// (`isolate: false`), so a mock in one file misses a root another file has already loaded.
export default '/assets/app-00000000.css'
