// The zip reader's worker thread (server/candidates/zip.ts starts it; docs/decisions.md "Bulk indexing"):
// reads a bulk indexing zip with yauzl, by its central directory, and inflates only the entries asked
// for, each as a stream, each only up to the per-entry cap and all together only up to the total cap.
// Plain JavaScript on purpose: a worker starts from a file Node runs as it is, in the sources and beside
// the server bundle alike (scripts/start.mjs copies it there).
import { Buffer } from 'node:buffer';
import { parentPort } from 'node:worker_threads';
import yauzl from 'yauzl';

const baseName = (path) => path.split('/').pop() ?? '';

/**
 * Entries whose bytes lie inside another's (the "overlapping entries" zip bomb: thousands of names over
 * one deflate stream, each inflating it again). Each entry's local header and data take at least
 * 30 bytes plus its compressed size, so an entry starting before the one before it ends overlaps it.
 */
function overlapping(entries) {
  const spans = entries
    .map((entry) => [entry.relativeOffsetOfLocalHeader, 30 + entry.compressedSize])
    .sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i++) {
    if (spans[i][0] < spans[i - 1][0] + spans[i - 1][1]) return true;
  }
  return false;
}

/**
 * job: { zip: Uint8Array, names: string[] (asked for by name), stems: string[] (asked for by name without
 * its extension: `<row>-<field>`), keep: 'head' | 'whole', headBytes, entryCap, totalCap, entriesCap }.
 * Answers { names, entries: [name, { size, tooLarge, broken, bytes }][], stop }.
 */
async function read(job) {
  const askedNames = new Set(job.names);
  const askedStems = new Set(job.stems);
  const asked = (name) => askedNames.has(name) || askedStems.has(name.replace(/\.[^.]+$/, ''));
  const stopped = (stop) => ({ message: { names: [], entries: [], stop }, transfer: [] });

  const buffer = Buffer.from(job.zip.buffer, job.zip.byteOffset, job.zip.byteLength);
  let zipfile;
  // The central directory first: how many entries, where each lies, what each says it inflates to.
  const all = [];
  try {
    // yauzl checks each inflated stream against the size its entry states (validateEntrySizes).
    zipfile = await yauzl.fromBufferPromise(buffer, { autoClose: false, validateEntrySizes: true });
    if (zipfile.entryCount > job.entriesCap) return stopped('tooManyEntries');
    for await (const entry of zipfile.eachEntry()) all.push(entry);
  } catch {
    return stopped('notZip');
  }
  if (overlapping(all)) return stopped('notZip');

  const names = [];
  const entries = new Map();
  let total = 0;
  for (const zipEntry of all) {
    if (zipEntry.fileName.endsWith('/')) continue; // a folder
    const name = baseName(zipEntry.fileName);
    names.push(name);
    if (!asked(name) || entries.has(name)) continue;
    const entry = { size: 0, tooLarge: false, broken: false, chunks: [], kept: 0 };
    entries.set(name, entry);
    // Said to be over the cap: never inflated at all.
    if (zipEntry.uncompressedSize > job.entryCap) {
      entry.tooLarge = true;
      continue;
    }
    if (total + zipEntry.uncompressedSize > job.totalCap) return stopped('tooLargeTotal');
    let stream;
    try {
      stream = await zipfile.openReadStreamPromise(zipEntry);
      for await (const chunk of stream) {
        entry.size += chunk.length;
        total += chunk.length;
        // Counted here too, whatever the headers said: past a cap, inflating stops.
        if (entry.size > job.entryCap) {
          entry.tooLarge = true;
          break;
        }
        if (total > job.totalCap) return stopped('tooLargeTotal');
        const room = job.keep === 'head' ? job.headBytes - entry.kept : chunk.length;
        if (room > 0) {
          const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
          entry.chunks.push(part);
          entry.kept += part.length;
        }
      }
    } catch {
      // Corrupt data, an unknown compression, or more bytes than its entry said (yauzl's check).
      entry.broken = true;
    } finally {
      stream?.destroy();
    }
    if (entry.tooLarge || entry.broken) entry.chunks = [];
  }
  zipfile.close();

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
  return { message: { names, entries: answer, stop: null }, transfer };
}

parentPort.on('message', async (job) => {
  const { message, transfer } = await read(job);
  parentPort.postMessage(message, transfer);
});
