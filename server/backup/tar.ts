import fs from 'node:fs';

/**
 * The POSIX ustar format, the little of it a backup needs: regular files and folders, with their mode
 * and time, under names of up to 255 characters. Written and read as streams, so an archive of any size
 * passes through in 64 KB pieces; gzip is done by node:zlib around it. No tar library is installed and
 * this is all we use of one.
 */
const BLOCK = 512;

export interface TarEntry {
  /** The name inside the archive, folders separated by `/`. */
  name: string;
  type: 'file' | 'dir';
  mode: number;
  /** Seconds since 1970. */
  mtime: number;
  size: number;
}

/** What to write: an entry, and for a file where its bytes are (a path on disk, or the bytes). */
export type TarSource = TarEntry & ({ path: string } | { bytes: Uint8Array } | { type: 'dir' });

export class TarError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TarError';
  }
}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

/** ustar keeps long names as a prefix (up to 155) and a name (up to 100), split at a `/`. */
function splitName(name: string): [prefix: string, name: string] {
  if (Buffer.byteLength(name) <= 100) return ['', name];
  for (let at = name.indexOf('/'); at !== -1; at = name.indexOf('/', at + 1)) {
    const prefix = name.slice(0, at);
    const rest = name.slice(at + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(rest) <= 100) return [prefix, rest];
  }
  throw new TarError(`The name ${name} is too long for the archive.`);
}

function header(entry: TarEntry): Buffer {
  const block = Buffer.alloc(BLOCK);
  const [prefix, name] = splitName(entry.type === 'dir' ? `${entry.name}/` : entry.name);
  block.write(name, 0, 100, 'utf8');
  block.write(octal(entry.mode & 0o7777, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(entry.type === 'dir' ? 0 : entry.size, 12), 124, 'ascii');
  block.write(octal(Math.max(0, Math.floor(entry.mtime)), 12), 136, 'ascii');
  block.write(' '.repeat(8), 148, 'ascii');
  block.write(entry.type === 'dir' ? '5' : '0', 156, 'ascii');
  block.write('ustar\u000000', 257, 'ascii');
  block.write(prefix, 345, 155, 'utf8');
  block.write(octal(checksum(block), 7) + ' ', 148, 'ascii');
  return block;
}

function checksum(block: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i];
  return sum;
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** The archive's bytes, entry by entry, ending with the two zero blocks that mark its end. */
export async function* packTar(
  sources: AsyncIterable<TarSource> | Iterable<TarSource>,
): AsyncGenerator<Buffer> {
  for await (const source of sources) {
    yield header(source);
    if (source.type === 'dir') continue;
    let written = 0;
    if ('bytes' in source) {
      written = source.bytes.byteLength;
      yield Buffer.from(source.bytes);
    } else if ('path' in source) {
      for await (const chunk of fs.createReadStream(source.path, { highWaterMark: 64 * 1024 })) {
        written += (chunk as Buffer).length;
        if (written > source.size) break;
        yield chunk as Buffer;
      }
    }
    // What is archived never changes once staged (server/backup/snapshot.ts), so this is a bug, not a race.
    if (written !== source.size) {
      throw new TarError(
        `${source.name} changed size while it was archived (${source.size}, then ${written}).`,
      );
    }
    yield padding(source.size);
  }
  yield Buffer.alloc(BLOCK * 2);
}

/** Reads exact numbers of bytes from a stream of chunks. */
class Reader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private readonly iterator: AsyncIterator<Buffer>;
  constructor(source: AsyncIterable<Buffer>) {
    this.iterator = source[Symbol.asyncIterator]();
  }
  private async fill(): Promise<boolean> {
    const { value, done } = await this.iterator.next();
    if (done) return false;
    this.chunks.push(value);
    this.buffered += value.length;
    return true;
  }
  /** Up to `max` bytes (at least one), or null at the end. */
  async some(max: number): Promise<Buffer | null> {
    while (this.buffered === 0) if (!(await this.fill())) return null;
    const first = this.chunks[0];
    const piece = first.subarray(0, Math.min(max, first.length));
    if (piece.length === first.length) this.chunks.shift();
    else this.chunks[0] = first.subarray(piece.length);
    this.buffered -= piece.length;
    return piece;
  }
  async exactly(size: number): Promise<Buffer> {
    const pieces: Buffer[] = [];
    for (let got = 0; got < size;) {
      const piece = await this.some(size - got);
      if (!piece) throw new TarError('the archive ends midway');
      pieces.push(piece);
      got += piece.length;
    }
    return pieces.length === 1 ? pieces[0] : Buffer.concat(pieces);
  }
  /** Reads to the end (so a gzip stream around it checks its trailer). */
  async drain(): Promise<void> {
    while (await this.fill()) this.chunks = [];
  }
}

function field(block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('utf8');
}

function number(block: Buffer, start: number, length: number): number {
  const text = field(block, start, length).trim();
  if (!/^[0-7]*$/.test(text)) throw new TarError('a header holds a number that is not octal');
  return text ? parseInt(text, 8) : 0;
}

/**
 * Reads an archive, handing each entry and its bytes (as chunks, to be read before the next entry) to
 * `onEntry`. Every header's checksum is checked; only files and folders are accepted.
 */
export async function unpackTar(
  source: AsyncIterable<Buffer>,
  onEntry: (entry: TarEntry, body: AsyncIterable<Buffer>) => Promise<void>,
): Promise<void> {
  const reader = new Reader(source);
  for (;;) {
    const block = await reader.exactly(BLOCK);
    if (block.every((byte) => byte === 0)) {
      await reader.exactly(BLOCK);
      await reader.drain();
      return;
    }
    if (number(block, 148, 8) !== checksum(block))
      throw new TarError('a header is damaged (its checksum is wrong)');
    const typeflag = String.fromCharCode(block[156]);
    const prefix = field(block, 345, 155);
    let name = field(block, 0, 100);
    if (prefix) name = `${prefix}/${name}`;
    const type = typeflag === '5' ? 'dir' : typeflag === '0' || typeflag === '\0' ? 'file' : null;
    if (!type) throw new TarError(`the entry ${name} is neither a file nor a folder`);
    const size = type === 'dir' ? 0 : number(block, 124, 12);
    const entry: TarEntry = {
      name: name.replace(/\/+$/, ''),
      type,
      mode: number(block, 100, 8),
      mtime: number(block, 136, 12),
      size,
    };
    let left = size;
    const body = async function* () {
      while (left > 0) {
        const piece = await reader.some(Math.min(left, 64 * 1024));
        if (!piece) throw new TarError('the archive ends midway');
        left -= piece.length;
        yield piece;
      }
    };
    await onEntry(entry, body());
    // Whatever the caller left unread is skipped.
    for await (const piece of body()) void piece;
    await reader.exactly(padding(size).length);
  }
}
