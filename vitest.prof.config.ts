import base from './vitest.config'
export default {
  ...base,
  test: { ...base.test, setupFiles: [...(base.test?.setupFiles as string[]), 'tests/setup/_prof.ts'] },
}
