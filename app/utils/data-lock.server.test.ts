import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DataFolderInUseError, lockDataFolder } from './data-lock.server'

const folders: string[] = []
function scratch() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-lock-'))
  folders.push(dir)
  return path.join(dir, 'db')
}
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

/** A process id that is certainly not running: one that just exited. */
function deadPid() {
  return spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString()
}

describe('the embedded database folder lock', () => {
  it('refuses a second process, naming the folder and what to do', () => {
    const folder = scratch()
    // Another live process holds it (the test runner's parent stands in for a running server).
    fs.writeFileSync(`${folder}.lock`, String(process.ppid))
    expect(() => lockDataFolder(folder)).toThrow(DataFolderInUseError)
    expect(() => lockDataFolder(folder)).toThrow(`pid ${process.ppid}`)
    expect(() => lockDataFolder(folder)).toThrow(/own DATA_DIR/)
    expect(fs.readFileSync(`${folder}.lock`, 'utf8')).toBe(String(process.ppid))
  })

  it('takes over a lock left by a process that is gone, and gives it back', () => {
    const folder = scratch()
    fs.writeFileSync(`${folder}.lock`, deadPid())
    const release = lockDataFolder(folder)
    expect(fs.readFileSync(`${folder}.lock`, 'utf8')).toBe(String(process.pid))
    release()
    expect(fs.existsSync(`${folder}.lock`)).toBe(false)
  })

  it('lets this process open it again (a reload in development)', () => {
    const folder = scratch()
    lockDataFolder(folder)
    const release = lockDataFolder(folder)
    release()
    expect(fs.existsSync(`${folder}.lock`)).toBe(false)
  })
})
