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

/** How often a portal on PGlite makes a checkpoint of its own and syncs it. */
const CHECKPOINT_EVERY_MS = 15 * 60_000;

/**
 * PostgreSQL inside PGlite makes a checkpoint on its own only once about half a gigabyte of WAL has
 * piled up (the single-user backend has no timed ones), and that one is not synced. Ours, every 15
 * minutes, are: the WAL never piles up that far, and recovery after a crash replays at most 15 minutes.
 * A checkpoint writes at most the 32 MB of shared buffers; the sync walks the folder (about 0.35 s for
 * the demo). Closing waits for one in progress.
 */
export function startCheckpoints(options: {
  pglite: { exec(query: string): Promise<unknown> };
  dir: string;
  log: { error(event: string, fields?: Record<string, unknown>): void };
  everyMs?: number;
}): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = (async () => {
      try {
        await options.pglite.exec('CHECKPOINT');
        await syncFolder(options.dir);
      } catch (error) {
        options.log.error('database.checkpoint_failed', { error: (error as Error).message });
      } finally {
        running = null;
      }
    })();
  }, options.everyMs ?? CHECKPOINT_EVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
