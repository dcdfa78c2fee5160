import fs from 'node:fs';
import path from 'node:path';

/**
 * Two processes on one PGlite directory lose data silently, so the first one holds a lock file and a
 * second one is refused with a clear message before it touches anything.
 */
export class DataDirLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `Another portal process (pid ${pid}) is already using the data directory ${dir}. ` +
        'Stop it first, or start this one with another DATA_DIR.',
    );
    this.name = 'DataDirLockedError';
  }
}

/** Whether a process with this pid exists (EPERM: it does, under another user). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Lock files this process holds: a lock with our own pid is ours only if it is in here; otherwise it
 * was left by an earlier process that had the same pid (a container restarted as pid 1). */
const heldHere = new Set<string>();

export function acquireLock(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'portal.lock');
  const key = path.resolve(file);
  if (heldHere.has(key)) throw new DataDirLockedError(dir, process.pid);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      heldHere.add(key);
      return () => {
        if (!heldHere.delete(key)) return;
        try {
          if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.unlinkSync(file);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(fs.readFileSync(file, 'utf8'));
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isRunning(holder)) {
        throw new DataDirLockedError(dir, holder);
      }
      // A lock left by a process that died: take it over.
      fs.unlinkSync(file);
    }
  }
  throw new Error(`Could not take the lock on ${dir}.`);
}
