import type { Config } from '@react-router/dev/config'

export default {
  ssr: true,
  // The whole route manifest ships with the first page (a few kB) instead of being discovered lazily. Lazy
  // discovery only learns routes from rendered links; a fetcher that loads a resource route no link points at (the
  // customer picker, the board's moves) could run before discovery and be matched to the not-found splat route —
  // an error page in the middle of typing (seen in CI).
  routeDiscovery: { mode: 'initial' },
} satisfies Config
