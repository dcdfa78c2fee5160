import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Makes the system write a folder's files to disk now (fsync on every file and folder in it). PGlite's
 * fsync is an empty call (server/db/client.ts, PGLITE_DURABLE_PARAMS), so after a checkpoint the data
 * files PostgreSQL wrote sit in the system's cache (Linux writes them back within about 30 s) while the
 * WAL that could rebuild them is already let go of: a power cut in between would lose them. We sync
 * after the checkpoints we cause: the one a backup asks for and the one a clean stop makes.
 */
export async function syncFolder(dir: string): Promise<void> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const entry of entries) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) await syncFolder(child);
    else if (entry.isFile()) await syncOne(child, 'r');
  }
  await syncOne(dir, 'r');
}

async function syncOne(file: string, flags: string) {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, flags);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // Removed meanwhile.
    throw error;
  }
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
