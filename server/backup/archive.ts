import { once } from 'node:events';
import { Readable } from 'node:stream';
import { Pack, Parser, type ReadEntry } from 'tar';

/**
 * The tar archive of a backup, written and read by node-tar (npm's own tar library) as streams, so an
 * archive of any size passes through in pieces; gzip is done by node:zlib around it. What is ours is
 * only what a backup needs of it: files and folders only, every header's checksum checked, and an
 * archive that is damaged or cut short refused with a reason that fits in a sentence (ArchiveError).
 */
export class ArchiveError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ArchiveError';
  }
}

export interface ArchiveEntry {
  /** The name inside the archive, folders separated by `/`. */
  name: string;
  type: 'file' | 'dir';
  mode: number;
  /** Seconds since 1970. */
  mtime: number;
  size: number;
}

/**
 * The archive of `names` (files, and folders with all they hold) under `dir`, in that order. Without
 * the owner's ids and names (`portable`), which mean nothing on the machine a backup is restored on.
 */
export function packArchive(dir: string, names: string[]): Readable {
  const pack = new Pack({ cwd: dir, portable: true });
  for (const name of names) pack.add(name);
  pack.end();
  // Not Readable.from(pack): left midway (the backup command went away), node-tar's Pack, which has no
  // way to be stopped, would pause holding open the files it is reading. Here it runs on to its end,
  // into nothing, and closes them.
  let wanted = true;
  const readable = new Readable({
    read: () => void pack.resume(),
    destroy: (error, callback) => {
      wanted = false;
      pack.resume();
      callback(error);
    },
  });
  pack.on('data', (chunk: Buffer) => {
    if (wanted && !readable.push(chunk)) pack.pause();
  });
  pack.on('end', () => wanted && readable.push(null));
  pack.on('error', (error: unknown) => wanted && readable.destroy(error as Error));
  return readable;
}

/**
 * Reads an archive, handing each entry and its bytes (to be read before the next entry comes) to
 * `onEntry`, one at a time. Resolves once the archive's end marker is read and every entry handled.
 */
export async function readArchive(
  input: AsyncIterable<Buffer>,
  onEntry: (entry: ArchiveEntry, body: AsyncIterable<Buffer>) => Promise<void>,
): Promise<void> {
  // The first error met: node-tar's (a bad checksum, a cut archive), or one of `onEntry`'s.
  let failure: unknown = null;
  let sawEnd = false;
  // Each entry is handled once the one before is: node-tar hands out the next as soon as the bytes of
  // one are read, before the code that read them has gone on.
  let handled = Promise.resolve();
  const parser = new Parser({
    // Every warning is an error.
    strict: true,
    onReadEntry: (read: ReadEntry) => {
      const work = handled.then(() => handle(read, onEntry));
      handled = work;
      work.catch((error: unknown) => {
        failure ??= error;
        // A fresh error: node-tar writes its codes into the one it is given.
        parser.abort(new Error('stopped'));
      });
    },
  });
  const stopped = new Promise<void>((resolve) => {
    parser.on('end', resolve);
    parser.on('error', (error: unknown) => {
      failure ??= inWords(error);
      resolve();
    });
  });
  parser.on('eof', () => (sawEnd = true));
  // Not `for await`: leaving it would destroy the input, and a pipeline around it would then report
  // that ("The operation was aborted") instead of what went wrong.
  const chunks = input[Symbol.asyncIterator]();
  while (!failure) {
    const { value: chunk, done } = await chunks.next();
    if (done) break;
    if (!parser.write(chunk) && !failure) {
      await Promise.race([once(parser, 'drain').catch(() => undefined), stopped]);
    }
  }
  if (!failure) {
    parser.end();
    await stopped;
  }
  if (!failure) await handled.catch(() => undefined);
  if (failure) throw failure;
  if (!sawEnd) throw new ArchiveError('the archive ends midway');
}

async function handle(
  read: ReadEntry,
  onEntry: (entry: ArchiveEntry, body: AsyncIterable<Buffer>) => Promise<void>,
): Promise<void> {
  const name = read.path.replace(/\/+$/, '');
  const type =
    read.type === 'Directory' ? 'dir' : read.type === 'File' || read.type === 'OldFile' ? 'file' : null;
  if (!type) throw new ArchiveError(`the entry ${name.slice(0, 200)} is neither a file nor a folder`);
  const entry: ArchiveEntry = {
    name,
    type,
    mode: read.mode ?? 0,
    mtime: Math.floor((read.mtime?.getTime() ?? 0) / 1000),
    size: type === 'dir' ? 0 : read.size,
  };
  await onEntry(entry, read);
  // Whatever the caller left unread is skipped, so the next entry comes.
  read.resume();
}

/** node-tar's errors (codes TAR_*) in the words of a sentence; any other error is passed on as it is. */
function inWords(error: unknown): unknown {
  const { tarCode, message } = error as { tarCode?: string; message?: string };
  const text = message ?? '';
  if (!tarCode) return error;
  if (/checksum/.test(text))
    return new ArchiveError('a header is damaged (its checksum is wrong)', { cause: error });
  if (/Truncated input/.test(text)) return new ArchiveError('the archive ends midway', { cause: error });
  if (/Unrecognized archive format/.test(text))
    return new ArchiveError('it is not a tar archive', { cause: error });
  return new ArchiveError(`the archive cannot be read (${text.replace(/^TAR_\w+: /, '')})`, { cause: error });
}
