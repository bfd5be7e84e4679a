import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { resolve } from './production-react-router.mjs'

describe('the production build of react-router under NODE_ENV=production', () => {
  it('resolves react-router to its production build, which exists and exports what the development build does', async () => {
    const next = () => {
      throw new Error('react-router must not fall through to Node’s own resolution')
    }
    const { url } = await resolve('react-router', {}, next)
    const file = fileURLToPath(url)
    expect(file).toMatch(/react-router\/dist\/production\/index\.mjs$/)
    expect(fs.existsSync(file)).toBe(true)
    const production = Object.keys(await import(url)).sort()
    const development = Object.keys(await import('react-router')).sort()
    expect(production).toEqual(development)
  })

  it('leaves every other specifier to Node', async () => {
    const seen: string[] = []
    await resolve('react', {}, (specifier: string) => {
      seen.push(specifier)
      return { url: 'node:react' }
    })
    expect(seen).toEqual(['react'])
  })

  it('one process that registers the hook loads one copy of react-router, the production one', () => {
    // What server.mjs does, in a child process: register, then import react-router the way the adapter does.
    const script = `
      import { register } from 'node:module'
      register('./server/production-react-router.mjs', import.meta.url)
      const a = await import('react-router')
      const b = await import('react-router')
      console.log(JSON.stringify({ same: a === b, url: import.meta.resolve('react-router') }))
    `
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
    const { same, url } = JSON.parse(out.trim().split('\n').at(-1) as string)
    expect(same).toBe(true)
    expect(url).toMatch(/dist\/production\/index\.mjs$/)
  })
})
