import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig, type Plugin } from 'vite'
import { requestGuards } from './server/request-guards.mjs'

const DEV_PORT = 3000

/**
 * The production server's request checks (server/request-guards.mjs) in `npm run dev` too:
 * cross-origin and oversized posts are refused and rate limits key on the socket's address,
 * so development behaves like production.
 */
function requestGuardsInDev(): Plugin {
  return {
    name: 'pool-bud-request-guards',
    apply: 'serve',
    configureServer(server) {
      const appOrigin = new URL(process.env.APP_URL ?? `http://localhost:${DEV_PORT}`).origin
      for (const guard of requestGuards({ appOrigin, clientIp: (req) => req.socket.remoteAddress })) {
        server.middlewares.use(guard)
      }
    },
  }
}

export default defineConfig({
  plugins: [requestGuardsInDev(), tailwindcss(), reactRouter()],
  resolve: { tsconfigPaths: true },
  server: { port: DEV_PORT },
})
