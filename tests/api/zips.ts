import { crc32, deflateRawSync } from 'node:zlib';

/**
 * Zips written byte by byte for the bulk indexing tests (PKWARE's APPNOTE, section 4.3): an entry's
 * compressed bytes made once can stand under any number of names, and its header can say what it likes
 * about its size, as an attacker's would; the central directory can list entries of its own.
 */

export interface RawEntry {
  name: string;
  /** Deflated bytes (method 8). */
  data: Uint8Array;
  /** The inflated size and CRC the headers state (an attacker's may lie). */
  size: number;
  crc: number;
}

/** A file's entry, deflated at level 9 (a run of zeros: a thousandth of its size). */
export function deflated(name: string, content: Uint8Array): RawEntry {
  return { name, data: deflateRawSync(content, { level: 9 }), size: content.byteLength, crc: crc32(content) };
}

/** `bytes` followed by zeros up to `size`: a file the upload limit measures, deflating to almost nothing. */
export function padded(bytes: Uint8Array, size: number): Uint8Array {
  const content = new Uint8Array(size);
  content.set(bytes);
  return content;
}

/**
 * The zip of `entries`, each local header before its data, then the central directory: one record an
 * entry, and any `centralOnly` records (a name pointing at the first entry's bytes, as the overlapping
 * entries of a "better zip bomb" do).
 */
export function rawZip(entries: RawEntry[], { centralOnly = [] as string[] } = {}): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  const headerOf = (entry: RawEntry, name: Buffer) => {
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(entry.crc >>> 0, 14);
    local.writeUInt32LE(entry.data.byteLength, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(name.byteLength, 26);
    return local;
  };
  const centralOf = (entry: RawEntry, name: Buffer, at: number) => {
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(0x0800, 8);
    record.writeUInt16LE(8, 10);
    record.writeUInt32LE(entry.crc >>> 0, 16);
    record.writeUInt32LE(entry.data.byteLength, 20);
    record.writeUInt32LE(entry.size, 24);
    record.writeUInt16LE(name.byteLength, 28);
    record.writeUInt32LE(at, 42);
    return Buffer.concat([record, name]);
  };
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const local = headerOf(entry, name);
    parts.push(local, name, entry.data);
    central.push(centralOf(entry, name, offset));
    offset += local.byteLength + name.byteLength + entry.data.byteLength;
  }
  for (const name of centralOnly) central.push(centralOf(entries[0], Buffer.from(name, 'utf8'), 0));
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(central.length, 0xffff), 8);
  end.writeUInt16LE(Math.min(central.length, 0xffff), 10);
  end.writeUInt32LE(directory.byteLength, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...parts, directory, end]));
}
