import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'

// `npm run dev` runs Vite in middleware mode inside server.mjs (scripts/dev.mjs), behind the production server's
// request guards; `npm run build` builds for that server.
export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  resolve: { tsconfigPaths: true },
  // Rolldown's timing report only ever names React Router's own plugin; it is noise on every `npm start` that builds.
  build: { rolldownOptions: { checks: { pluginTimings: false } } },
})
