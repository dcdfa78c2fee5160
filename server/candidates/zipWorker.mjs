// The zip reader's worker thread (server/candidates/zip.ts starts it; docs/decisions.md "Bulk indexing"):
// reads a bulk indexing zip as a stream of its local entries, inflating only the entries asked for, each
// only until it passes the per-entry cap, and the whole read only until it passes the total cap. Plain
// JavaScript on purpose: a worker starts from a file Node runs as it is, in the sources and beside the
// server bundle alike (scripts/start.mjs copies it there).
import { parentPort } from 'node:worker_threads';
import { Inflate, Unzip, UnzipPassThrough } from 'fflate';

/** Compressed bytes pushed at a time: a deflate stream inflates at most ~1,032 times that in one step. */
const CHUNK = 16 * 1024;

/**
 * DEFLATE for Unzip that can be stopped: fflate's own UnzipInflate has no `terminate`, so an entry past
 * its cap would go on being inflated (and thrown away) to its end. This one drops every chunk after.
 */
class CappedInflate {
  static compression = 8;
  constructor() {
    this.stopped = false;
    this.inflate = new Inflate((data, final) => this.ondata(null, data, final));
  }
  push(chunk, final) {
    if (this.stopped) return;
    try {
      this.inflate.push(chunk, final);
    } catch (error) {
      this.stopped = true;
      this.ondata(error, null, final);
    }
  }
  terminate() {
    this.stopped = true;
  }
}

const baseName = (path) => path.split('/').pop() ?? '';

/**
 * job: { zip: Uint8Array, names: string[] (asked for by name), rows: number[] and fields: string[]
 * (asked for as `<row>-<field>.<ext>`), keep: 'head' | 'whole', headBytes, entryCap, totalCap,
 * entriesCap }. Answers { names, entries: [name, { size, tooLarge, broken, bytes }][], stop }.
 */
function read(job) {
  const askedNames = new Set(job.names);
  const askedRows = new Set(job.rows);
  const fields = new Set(job.fields);
  const asked = (name) => {
    if (askedNames.has(name)) return true;
    const match = /^(\d+)-([a-z0-9_]+)\.[^.]+$/.exec(name);
    return !!match && askedRows.has(Number(match[1])) && fields.has(match[2]);
  };

  const names = [];
  const entries = new Map();
  let total = 0;
  let stop = null;
  let found = 0;

  const unzip = new Unzip((file) => {
    found += 1;
    if (stop) return;
    const name = baseName(file.name);
    if (!name) return; // a folder
    names.push(name);
    if (names.length > job.entriesCap) {
      stop = 'tooManyEntries';
      return;
    }
    if (!asked(name) || entries.has(name)) return;
    const entry = { size: 0, tooLarge: false, broken: false, chunks: [], kept: 0 };
    entries.set(name, entry);
    file.ondata = (error, data) => {
      if (stop || entry.tooLarge || entry.broken) return;
      if (error) {
        entry.broken = true;
        entry.chunks = [];
        return;
      }
      entry.size += data.length;
      if (entry.size > job.entryCap) {
        // Past the cap: what was inflated goes, and so does the rest (never inflated).
        entry.tooLarge = true;
        entry.chunks = [];
        total += job.entryCap - (entry.size - data.length);
        file.terminate();
        return;
      }
      total += data.length;
      if (total > job.totalCap) {
        stop = 'tooLargeTotal';
        file.terminate();
        return;
      }
      const room = job.keep === 'head' ? job.headBytes - entry.kept : data.length;
      if (room > 0) {
        const part = data.length > room ? data.subarray(0, room) : data;
        // A copy: the chunk may be a view of fflate's own buffer, reused for the next.
        entry.chunks.push(part.slice());
        entry.kept += part.length;
      }
    };
    file.start();
  });
  unzip.register(UnzipPassThrough);
  unzip.register(CappedInflate);

  const zip = job.zip;
  try {
    for (let offset = 0; offset < zip.length && !stop; offset += CHUNK) {
      const end = Math.min(offset + CHUNK, zip.length);
      unzip.push(zip.subarray(offset, end), end === zip.length);
    }
  } catch {
    // A truncated or broken archive.
    if (!stop) stop = 'notZip';
  }
  // Not a zip at all: no entry, and not even an empty archive's end record ("PK\5\6").
  if (!stop && !found) {
    const empty = zip.length >= 22 && zip[0] === 0x50 && zip[1] === 0x4b && zip[2] === 5 && zip[3] === 6;
    if (!empty) stop = 'notZip';
  }

  const answer = [];
  const transfer = [];
  for (const [name, entry] of entries) {
    let bytes = null;
    if (!entry.tooLarge && !entry.broken) {
      bytes = new Uint8Array(entry.kept);
      let at = 0;
      for (const chunk of entry.chunks) {
        bytes.set(chunk, at);
        at += chunk.length;
      }
      transfer.push(bytes.buffer);
    }
    answer.push([name, { size: entry.size, tooLarge: entry.tooLarge, broken: entry.broken, bytes }]);
  }
  return { message: { names, entries: answer, stop }, transfer };
}

parentPort.on('message', (job) => {
  const { message, transfer } = read(job);
  parentPort.postMessage(message, transfer);
});
