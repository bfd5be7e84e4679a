// `npm start`: build when the sources are newer than the build, then run the server.
import { execSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
process.chdir(root)

function newestMtime(entry) {
  const stat = fs.statSync(entry, { throwIfNoEntry: false })
  if (!stat) return 0
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)))
  return newest
}

const builtAt = fs.statSync('build/server/index.js', { throwIfNoEntry: false })?.mtimeMs ?? 0
const sources = ['app', 'public', 'package.json', 'vite.config.ts', 'react-router.config.ts']
if (Math.max(...sources.map(newestMtime)) > builtAt) {
  console.log('Building Pool Bud…')
  execSync('npx react-router build', { stdio: 'inherit' })
}

process.env.NODE_ENV ??= 'production'
await import('../server.mjs')
