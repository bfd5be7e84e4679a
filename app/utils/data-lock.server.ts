// PGlite is PostgreSQL in this process: two processes opening one data folder both run, and both
// write the same files, which corrupts the database. A lock file beside the folder, holding the
// owner's process id, lets exactly one server (or seed script) in; a second one is told why.
import fs from 'node:fs'
import path from 'node:path'

export class DataFolderInUseError extends Error {
  override name = 'DataFolderInUseError'
}

function isRunning(pid: number) {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function readHolder(lockPath: string): number | 'gone' {
  try {
    return Number.parseInt(fs.readFileSync(lockPath, 'utf8'), 10)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone'
    throw error
  }
}

/** Takes the lock of `folder` for this process; returns the function that gives it back. */
export function lockDataFolder(folder: string): () => void {
  const lockPath = `${path.resolve(folder)}.lock`
  fs.mkdirSync(path.dirname(lockPath), { recursive: true })
  const mine = String(process.pid)
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(lockPath, mine, { flag: 'wx' })
      return () => {
        try {
          if (fs.readFileSync(lockPath, 'utf8') === mine) fs.unlinkSync(lockPath)
        } catch {
          // Already gone (the folder was removed, or another process took over a stale lock): nothing to give back.
        }
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const holder = readHolder(lockPath)
    // Released between our attempt and this read: try again.
    if (holder === 'gone') continue
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isRunning(holder)) {
      throw new DataFolderInUseError(
        `Another Pool Bud process (pid ${holder}) is already using the embedded database in ${path.resolve(folder)}.\n` +
          'Stop it first, or give this one its own DATA_DIR. ' +
          `If no other Pool Bud process is running, delete ${lockPath}.`,
      )
    }
    // Left behind by a process that is gone (a crash, a killed terminal): take it over.
    fs.rmSync(lockPath, { force: true })
  }
  throw new DataFolderInUseError(`Could not lock ${lockPath}; another process keeps taking it.`)
}
