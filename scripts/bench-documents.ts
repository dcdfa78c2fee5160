import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { CANDIDATE_CATEGORIES } from '../contract/candidates';
import { DOCUMENT_INLINE_LIMIT, type DocumentJob } from '../contract/documents';
import { DOCUMENT_ENDPOINTS } from '../contract/documents.endpoints';
import { fillPath } from '../contract/endpoint';
import { printPhotoOf } from '../server/candidates/printPhoto';
import { CANDIDATE_FILE_KIND, PRINT_PHOTO_FIELD } from '../server/candidates/uploads';
import { openDatabase, type DatabaseTarget } from '../server/db/client';
import { FIRST_NAMES, LAST_NAMES } from '../server/demo/names';
import { databaseKey, onEachDatabase, rawSql, signIn, startServer, type Running } from './bench-candidates';
import { figureKey, recordFigure } from './benchRecord';

/**
 * Bulk PDFs through HTTP (issue 25): the whole print as a board admin gets it, route, builder (the
 * database's reading of the rows) and drawing together, on the portal as `npm start` runs it
 * (scripts/start.mjs in its own process), on PGlite and on PostgreSQL (onEachDatabase).
 *
 * One school of its own ("BEN-DOC") gets its candidates, verified and registered for the demo's current
 * diet, spread over every course header, each with a print photo as an upload leaves it: a `files` row
 * (PRINT_PHOTO_FIELD) and a stored JPEG made by server/candidates/printPhoto.ts from a camera-sized
 * portrait. PHOTOS distinct photos are made; each candidate's own stored file is a hard link to one of
 * them (its own key, as uploads give, without writing 20,000 copies). Candidates, registrations and files
 * are inserted by SQL (generate_series), never through the API; then ANALYZE, as PostgreSQL's autovacuum
 * would within a minute and as the portal's own upkeep does on PGlite after it starts.
 *
 * At each size of BENCH_DOCUMENTS_COUNTS (default 1000,5000,20000; the school grows from one to the
 * next) the portal is started again (a fresh process, so its memory is that size's alone), the admin
 * signs in through the real two-step sign-in, and for the candidate list and the photocards of that
 * school and diet:
 *  - up to DOCUMENT_INLINE_LIMIT: GET …/pdf, timed to its first and its last byte;
 *  - beyond it: the GET is checked to answer 413, then the job is started (POST …/jobs), its progress
 *    polled every POLL_MS until ready (the time and every progress value seen), the file downloaded
 *    (time to last byte), and a ranged resume checked: `Range: bytes=<half>-` must answer 206 with
 *    exactly the second half of the whole download.
 * Beside each: the PDF's size and pages, and the portal process's peak resident memory (VmHWM of
 * /proc/<pid>/status, reset before each print by writing 5 to /proc/<pid>/clear_refs; when the kernel
 * refuses the reset, the peak since the start, said so), with the load average of the moment. A job's
 * polls are timed too: the slowest answer says how long the progress bar could stand still. While each
 * print runs, /api/health (liveness, no database) is asked every HEALTH_EVERY_MS: its slowest answer says
 * how long any other request to the portal waited for its event loop meanwhile.
 * BENCH_DOCUMENTS_JOBS=all builds a job at the streamed sizes too; BENCH_DOCUMENTS_ONLY=candidate-list or
 * photocard measures one; BENCH_DOCUMENTS_PHOTOS (default 300) the distinct photos.
 */

const COUNTS = (process.env.BENCH_DOCUMENTS_COUNTS ?? '1000,5000,20000')
  .split(',')
  .map((c) => Number(c.trim()))
  .filter((c) => c > 0)
  .sort((a, b) => a - b);
const PHOTOS = Number(process.env.BENCH_DOCUMENTS_PHOTOS ?? 300);
const SCHOOL = { code: 'BEN-DOC', name: 'Bench School of Nursing, Benin', state: 'Edo' };
const ADMIN = 'admin@example.org';
const POLL_MS = 250;
/** No job is waited for longer than this. */
const JOB_LIMIT_MS = 30 * 60_000;
/** Well past any other index number the demo gives. */
const FIRST_SEQUENCE = 800_000;
const PHOTO_SOURCE = 'benchsrc';
const ENDINGS = ['candidate-list', 'photocard'] as const;
/** BENCH_DOCUMENTS_ONLY=candidate-list (or photocard): one of the two. */
const DOCUMENTS = ENDINGS.filter(
  (e) => !process.env.BENCH_DOCUMENTS_ONLY || process.env.BENCH_DOCUMENTS_ONLY === e,
);
/** BENCH_DOCUMENTS_JOBS=all: a job too at sizes the portal streams (to compare, or to try the job's path small). */
const JOBS_ALWAYS = process.env.BENCH_DOCUMENTS_JOBS === 'all';

interface Figure {
  database: string;
  ending: (typeof ENDINGS)[number];
  count: number;
  /** 'streamed again': the same print a second time in the same portal process (warm). */
  how: 'streamed' | 'streamed again' | 'job';
  /** Whole print, milliseconds: GET to last byte; for a job, start to ready plus the download. */
  ms: number;
  /** Streamed: GET to the first byte; a job: its download's. */
  firstByteMs: number | null;
  /** A job's parts: start to ready, and the download to its last byte. */
  jobMs?: number;
  downloadMs?: number;
  progress?: string;
  /** The progress polls: how many, and the slowest answer (ms). */
  polls?: { count: number; slowestMs: number; failed: string[] };
  /** The ranged resume's outcome. */
  resume?: string;
  /** The inline GET beyond the limit. */
  inline?: number;
  bytes: number;
  pages: number;
  peakRssMb: number | null;
  /** The slowest /api/health answer (liveness, no database) while it printed: how long other requests waited. */
  healthMs: number | null;
  peakNote: string;
  load: string;
}

// ---------------------------------------------------------------------------------------------------
// Seeding.

/** PHOTOS print photos (from 1200×1500 camera-sized grainy portraits, as uploads are), in `dir`. */
async function makePhotos(dir: string): Promise<number[]> {
  fs.mkdirSync(dir, { recursive: true });
  const sizes: number[] = [];
  for (let i = 0; i < PHOTOS; i++) {
    // A grainy ground (a camera's noise and texture), so the print photo is a few KB as real ones are,
    // not the 2-3 KB a flat colour gives.
    const grain = await sharp({
      create: {
        width: 1200,
        height: 1500,
        channels: 3,
        background: { r: 0, g: 0, b: 0 },
        noise: { type: 'gaussian', mean: 120 + (i % 80), sigma: 60 },
      },
    })
      .raw()
      .toBuffer();
    const camera = await sharp(grain, { raw: { width: 1200, height: 1500, channels: 3 } })
      .composite([
        {
          input: Buffer.from(
            `<svg width="1200" height="1500"><ellipse cx="${560 + (i % 80)}" cy="620" rx="${280 + (i % 60)}" ry="${380 + (i % 50)}" fill="rgb(${80 + (i % 70)},${50 + (i % 30)},40)" fill-opacity="0.85"/><ellipse cx="600" cy="1500" rx="560" ry="480" fill="rgb(${20 + (i % 100)},${60 + (i % 80)},120)" fill-opacity="0.85"/></svg>`,
          ),
        },
      ])
      .jpeg({ quality: 90 })
      .toBuffer();
    const small = await printPhotoOf(new Uint8Array(camera));
    fs.writeFileSync(path.join(dir, `${i}.jpg`), small.bytes);
    sizes.push(small.size);
  }
  return sizes;
}

const photoKey = (candidateId: number) =>
  `candidates/benchprint-${String(candidateId).padStart(12, '0')}.jpg`;

/**
 * Grows the school to `count` candidates (generate_series, one statement each for candidates,
 * registrations and files), links each new candidate's print photo into the storage, then ANALYZE.
 * Answers the diet's code and the seconds it took.
 */
async function seedSchool(
  target: DatabaseTarget,
  dataDir: string,
  photoDir: string,
  sizes: number[],
  count: number,
) {
  const started = performance.now();
  const handle = await openDatabase(target);
  const raw = await rawSql(target, handle.pglite);
  try {
    await raw.query(
      `insert into training_schools (code, name, state)
       select $1::text, $2::text, $3::text where not exists (select 1 from training_schools where code = $1::text)`,
      [SCHOOL.code, SCHOOL.name, SCHOOL.state],
    );
    const { rows: schools } = await raw.query(`select id from training_schools where code = $1`, [
      SCHOOL.code,
    ]);
    const school = Number(schools[0].id);
    const { rows: admins } = await raw.query(`select id from users where email = $1`, [ADMIN]);
    const admin = Number(admins[0].id);
    const { rows: diets } = await raw.query(`select id, code from diets where current`);
    const diet = { id: Number(diets[0].id), code: String(diets[0].code) };
    const { rows: have } = await raw.query(
      `select count(*)::int as n from candidates where training_school_id = $1`,
      [school],
    );
    const from = Number(have[0].n) + 1;
    if (from <= count) {
      // Names case-insensitively distinct; (first name, date of birth) differs for every g below
      // 9,973 × the first names (9,973 is prime), so the duplicate rule never refuses a row.
      const firsts = [...new Map(FIRST_NAMES.map((n) => [n.toLowerCase(), n])).values()];
      const lasts = [...new Map(LAST_NAMES.map((n) => [n.toLowerCase(), n])).values()];
      const { rows: inserted } = await raw.query(
        `with headers as (select array_agg(id order by id) as ids, array_agg(code order by id) as codes from course_headers)
         insert into candidates (candidate_index, training_school_id, course_header_id, year, first_name, last_name,
             middle_name, title, date_of_birth, candidate_category, marital_status, gender, nationality, verified,
             verified_by, verified_at, created_by)
         select 'WHB/26/' || h.codes[1 + g % cardinality(h.ids)] || '/' || lpad(($3 + g)::text, 6, '0'),
                $1, h.ids[1 + g % cardinality(h.ids)], 2026,
                ($4::text[])[1 + g % cardinality($4::text[])],
                ($5::text[])[1 + (g * 7 + g / 13) % cardinality($5::text[])],
                case when g % 5 < 3 then ($4::text[])[1 + (g * 11 + 3) % cardinality($4::text[])] end,
                case when g % 3 = 0 then 'Mr' else 'Miss' end,
                date '1975-01-01' + (g % 9973),
                $6, 'S', case when g % 3 = 0 then 'male' else 'female' end, 'NG', true, $2, now(), $2
           from generate_series($7::int, $8::int) as g, headers h
         returning id`,
        [school, admin, FIRST_SEQUENCE, firsts, lasts, CANDIDATE_CATEGORIES[0].code, from, count],
      );
      const ids = inserted.map((r) => Number(r.id));
      await raw.query(
        `insert into registrations (diet_id, candidate_id, reg_status, changed_by)
         select $1, id, 'registered', $2 from unnest($3::int[]) as id`,
        [diet.id, admin, ids],
      );
      await raw.query(
        `insert into files (key, kind, owner_id, content_type, size, candidate_id, field)
         select 'candidates/benchprint-' || lpad(id::text, 12, '0') || '.jpg', $1, $2, 'image/jpeg',
                ($3::int[])[1 + id % cardinality($3::int[])], id, $4
           from unnest($5::int[]) as id`,
        [CANDIDATE_FILE_KIND, admin, sizes, PRINT_PHOTO_FIELD, ids],
      );
      const folder = path.join(dataDir, 'uploads', 'candidates');
      fs.mkdirSync(folder, { recursive: true });
      const typeFile = path.join(photoDir, 'type');
      if (!fs.existsSync(typeFile)) fs.writeFileSync(typeFile, 'image/jpeg');
      for (const id of ids) {
        const file = path.join(dataDir, 'uploads', photoKey(id));
        fs.linkSync(path.join(photoDir, `${id % sizes.length}.jpg`), file);
        fs.linkSync(typeFile, `${file}.type`);
      }
    }
    await raw.query('analyze');
    return { diet: diet.code, seconds: (performance.now() - started) / 1000 };
  } finally {
    await raw.close();
    await handle.close();
  }
}

// ---------------------------------------------------------------------------------------------------
// The portal's memory.

/** Resets the peak RSS of the process (Linux: 5 to clear_refs); false when the kernel refuses. */
function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

function memoryOf(pid: number): { rssMb: number; peakMb: number } | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) };
  } catch {
    return null;
  }
}

const loadNow = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

// ---------------------------------------------------------------------------------------------------
// HTTP.

/**
 * Asks /api/health (the liveness answer: no database) every HEALTH_EVERY_MS, one at a time, until
 * stopped; answers the slowest answer's milliseconds: how long any other request waited for the
 * portal's event loop while it printed.
 */
const HEALTH_EVERY_MS = 100;
function probeHealth(url: string) {
  let running = true;
  let slowest = 0;
  const done = (async () => {
    while (running) {
      const asked = performance.now();
      try {
        await (await fetch(`${url}/api/health`)).text();
      } catch {
        // Counted by its time all the same.
      }
      slowest = Math.max(slowest, performance.now() - asked);
      await new Promise((resolve) => setTimeout(resolve, HEALTH_EVERY_MS));
    }
  })();
  return async () => {
    running = false;
    await done;
    return slowest;
  };
}

/** Reads a response to its last byte: the bytes, and when the last one came. */
async function readAll(response: Response): Promise<{ bytes: Buffer; endedAt: number }> {
  const chunks: Uint8Array[] = [];
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  return { bytes: Buffer.concat(chunks), endedAt: performance.now() };
}

const pagesOf = (pdf: Buffer) => pdf.toString('latin1').match(/\/Type \/Page\b(?!s)/g)?.length ?? 0;

function checkPdf(pdf: Buffer, what: string) {
  if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') throw new Error(`${what}: not a PDF`);
}

async function measureDocument(
  server: Running,
  token: string,
  database: string,
  ending: (typeof ENDINGS)[number],
  count: number,
  diet: string,
): Promise<Figure> {
  const headers = { authorization: `Bearer ${token}` };
  const query = `?${new URLSearchParams({ diet, school: SCHOOL.code })}`;
  const pdfUrl = server.url + fillPath(DOCUMENT_ENDPOINTS.pdf.admin.path, { ending }) + query;
  const reset = resetPeak(server.pid);
  const peakNote = reset ? '' : ' (since the start: the peak could not be reset)';
  const stopProbe = count <= DOCUMENT_INLINE_LIMIT ? probeHealth(server.url) : null;
  const started = performance.now();
  const response = await fetch(pdfUrl, { headers });
  const firstByteAt = performance.now();
  if (count <= DOCUMENT_INLINE_LIMIT) {
    if (response.status !== 200)
      throw new Error(`GET ${ending} pdf: ${response.status} ${await response.text()}`);
    const { bytes, endedAt } = await readAll(response);
    const healthMs = await stopProbe!();
    checkPdf(bytes, ending);
    return {
      database,
      ending,
      count,
      how: 'streamed',
      ms: endedAt - started,
      firstByteMs: firstByteAt - started,
      bytes: bytes.length,
      pages: pagesOf(bytes),
      peakRssMb: memoryOf(server.pid)?.peakMb ?? null,
      healthMs,
      peakNote,
      load: loadNow(),
    };
  }
  // Beyond the limit: the inline GET refuses, and a job builds it.
  const inline = response.status;
  await response.text();
  return viaJob(server, token, database, ending, count, query, inline);
}

/** The print built by a job: started, polled to ready, downloaded, and its second half downloaded again. */
async function viaJob(
  server: Running,
  token: string,
  database: string,
  ending: (typeof ENDINGS)[number],
  count: number,
  query: string,
  inline: number | undefined,
): Promise<Figure> {
  const headers = { authorization: `Bearer ${token}` };
  const reset = resetPeak(server.pid);
  const peakNote = reset ? '' : ' (since the start: the peak could not be reset)';
  const stopProbe = probeHealth(server.url);
  const jobStarted = performance.now();
  const start = await fetch(
    server.url + fillPath(DOCUMENT_ENDPOINTS.startJob.admin.path, { ending }) + query,
    { method: 'POST', headers: { ...headers, accept: 'application/json' } },
  );
  const startBody = (await start.json()) as { data: DocumentJob };
  if (!start.ok) throw new Error(`POST ${ending} job: ${start.status} ${JSON.stringify(startBody)}`);
  let job = startBody.data;
  const seen: string[] = [];
  const note = (j: DocumentJob) => {
    const at = ((performance.now() - jobStarted) / 1000).toFixed(1);
    const value = `${j.state} ${j.done}/${j.total}`;
    if (!seen.length || !seen[seen.length - 1].startsWith(`${value} `)) seen.push(`${value} @${at}s`);
  };
  note(job);
  const jobUrl = server.url + fillPath(DOCUMENT_ENDPOINTS.job.admin.path, { id: job.id });
  const polls = { count: 0, slowestMs: 0, failed: [] as string[] };
  while (job.state !== 'ready' && job.state !== 'failed') {
    if (performance.now() - jobStarted > JOB_LIMIT_MS)
      throw new Error(`${ending} job not ready in ${JOB_LIMIT_MS / 60_000} min`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const asked = performance.now();
    try {
      const polled = await fetch(jobUrl, { headers: { ...headers, accept: 'application/json' } });
      job = ((await polled.json()) as { data: DocumentJob }).data;
    } catch (error) {
      // A poll the network failed (a reused connection reset): counted, and asked again, as a page would.
      polls.failed.push(
        `${((performance.now() - jobStarted) / 1000).toFixed(1)}s: ${String((error as Error).cause ?? error)}`,
      );
    }
    polls.count += 1;
    polls.slowestMs = Math.max(polls.slowestMs, performance.now() - asked);
    note(job);
  }
  if (job.state === 'failed') throw new Error(`${ending} job failed: ${job.message}`);
  const readyAt = performance.now();
  const healthMs = await stopProbe();
  // The job's signed link, fetched without the token, as the browser's download manager fetches it.
  if (!job.download) throw new Error(`${ending} job is ready without its download link`);
  const fileUrl = new URL(job.download.url, server.url).href;
  const download = await fetch(fileUrl);
  const downloadFirstByte = performance.now();
  if (download.status !== 200) throw new Error(`GET ${ending} job file: ${download.status}`);
  const { bytes, endedAt } = await readAll(download);
  checkPdf(bytes, `${ending} job file`);
  const peakRssMb = memoryOf(server.pid)?.peakMb ?? null;
  // The resume: the second half, by a Range request, must be the whole file's second half.
  const half = Math.floor(bytes.length / 2);
  const ranged = await fetch(fileUrl, { headers: { range: `bytes=${half}-` } });
  const part = (await readAll(ranged)).bytes;
  const resume =
    ranged.status === 206 && part.equals(bytes.subarray(half))
      ? `206, bytes ${half}-${bytes.length - 1} match`
      : `MISMATCH: ${ranged.status}, ${part.length} bytes (${ranged.headers.get('content-range')})`;
  return {
    database,
    ending,
    count,
    how: 'job',
    ms: endedAt - jobStarted,
    firstByteMs: downloadFirstByte - readyAt,
    jobMs: readyAt - jobStarted,
    downloadMs: endedAt - readyAt,
    progress: seen.join(', '),
    polls,
    resume,
    ...(inline === undefined ? {} : { inline }),
    bytes: bytes.length,
    ...(job.bytes !== bytes.length
      ? { resume: `${resume}; the job said ${job.bytes} bytes, the download had ${bytes.length}` }
      : {}),
    pages: pagesOf(bytes),
    peakRssMb,
    healthMs,
    peakNote,
    load: loadNow(),
  };
}

// ---------------------------------------------------------------------------------------------------

async function run(
  database: string,
  env: Record<string, string>,
  dataDir: string,
  port: number,
  photoDir: string,
  sizes: number[],
) {
  const target: DatabaseTarget = env.DATABASE_URL
    ? { driver: 'postgres', url: env.DATABASE_URL }
    : { driver: 'pglite', dataDir };
  console.log(`\n${database}: the first start (create, migrate, seed the demo)...`);
  await (await startServer(env, port)).stop();
  const figures: Figure[] = [];
  for (const count of COUNTS) {
    const seeded = await seedSchool(target, dataDir, photoDir, sizes, count);
    console.log(
      `  ${SCHOOL.code} grown to ${count.toLocaleString('en')} candidates in ${seeded.seconds.toFixed(1)} s`,
    );
    const server = await startServer(env, port);
    try {
      const token = await signIn(server.url, dataDir, ADMIN);
      const idle = memoryOf(server.pid);
      for (const ending of DOCUMENTS) {
        const figure = await measureDocument(server, token, database, ending, count, seeded.diet);
        figures.push(figure);
        console.log(`  ${lineOf(figure)}${idle ? ` [portal RSS at rest ${idle.rssMb} MB]` : ''}`);
        if (figure.progress) console.log(`    ${jobLine(figure)}`);
        if (JOBS_ALWAYS && count <= DOCUMENT_INLINE_LIMIT) {
          const query = `?${new URLSearchParams({ diet: seeded.diet, school: SCHOOL.code })}`;
          const job = await viaJob(server, token, database, ending, count, query, undefined);
          figures.push(job);
          console.log(`  ${lineOf(job)}`);
          console.log(`    ${jobLine(job)}`);
        }
      }
      // Each streamed print again, in the same process: the first print after a start also pays what
      // a process does once (the PDF worker's loading, the fonts' and the queries' first runs).
      if (count <= DOCUMENT_INLINE_LIMIT)
        for (const ending of DOCUMENTS) {
          const again = {
            ...(await measureDocument(server, token, database, ending, count, seeded.diet)),
            how: 'streamed again' as const,
          };
          figures.push(again);
          console.log(`  ${lineOf(again)}`);
        }
    } finally {
      await server.stop();
    }
  }
  return figures;
}

/** A job's progress as the polls saw it, their slowest answer, and the ranged resume's outcome. */
const jobLine = (f: Figure) =>
  `progress seen (${f.polls!.count} polls, one every ${POLL_MS} ms after the last answer; slowest answer ${seconds(f.polls!.slowestMs)}${f.polls!.failed.length ? `; ${f.polls!.failed.length} failed: ${f.polls!.failed.join('; ')}` : ''}): ${f.progress}; resume: ${f.resume}`;

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

function lineOf(f: Figure) {
  const time =
    f.how !== 'job'
      ? `${seconds(f.ms)} (first byte ${seconds(f.firstByteMs!)})`
      : `${seconds(f.ms)} (job ${seconds(f.jobMs!)} + download ${seconds(f.downloadMs!)}${f.inline === undefined ? '' : `; inline GET ${f.inline}`})`;
  return `| ${f.database} | ${f.ending} | ${f.count.toLocaleString('en')} | ${f.how} | ${time} | ${mb(f.bytes)} | ${f.pages.toLocaleString('en')} | ${f.peakRssMb ?? '?'} MB${f.peakNote} | ${f.healthMs === null ? '?' : seconds(f.healthMs)} | ${f.load} |`;
}

export async function benchDocuments({ port }: { port: number }): Promise<void> {
  console.log(
    `\nBulk PDFs through HTTP (route, builder and drawing): ${COUNTS.map((c) => c.toLocaleString('en')).join(', ')} candidates of one school, as the board admin`,
  );
  // The photos' folder beside the data directories (in the same file system: the stored files are hard links).
  const photoDir = fs.mkdtempSync(path.join(os.tmpdir(), `portal-bench-${PHOTO_SOURCE}-`));
  let figures: Figure[];
  try {
    const sizes = await makePhotos(photoDir);
    console.log(
      `${PHOTOS} print photos made (${(sizes.reduce((a, b) => a + b, 0) / sizes.length / 1024).toFixed(1)} KB on average, ${(Math.min(...sizes) / 1024).toFixed(1)}-${(Math.max(...sizes) / 1024).toFixed(1)} KB)`,
    );
    figures = (
      await onEachDatabase('documents', (label, env, dataDir) =>
        run(label, env, dataDir, port, photoDir, sizes),
      )
    ).flat();
  } finally {
    fs.rmSync(photoDir, { recursive: true, force: true });
  }
  console.log(
    `\n| database | document | count | how | time to last byte | PDF size | pages | portal peak RSS | slowest /api/health meanwhile | load average (1, 5, 15 min) |`,
  );
  console.log('| --- | --- | --: | --- | --: | --: | --: | --: | --: | --- |');
  for (const figure of figures) {
    console.log(lineOf(figure));
    // No anchor: the time to the last byte and the slowest /api/health are absolute (the load stored
    // beside them); the size and the portal's peak memory are not moved by the load.
    const key = `documents.${databaseKey(figure.database)}.${figureKey(figure.ending)}.n${figure.count}.${figureKey(figure.how)}`;
    recordFigure(`${key}.ms`, Math.round(figure.ms), 'ms', 'lower');
    recordFigure(`${key}.bytes`, figure.bytes, 'bytes', 'lower');
    if (figure.peakRssMb !== null) recordFigure(`${key}.peak_rss_mb`, figure.peakRssMb, 'MB', 'lower');
    if (figure.healthMs !== null)
      recordFigure(`${key}.slowest_health_ms`, Math.round(figure.healthMs), 'ms', 'lower');
  }
  const jobs = figures.filter((f) => f.how === 'job');
  if (jobs.length) {
    console.log(`\nJobs (the inline limit is ${DOCUMENT_INLINE_LIMIT.toLocaleString('en')}):`);
    for (const f of jobs) {
      console.log(`- ${f.database}, ${f.ending} ${f.count.toLocaleString('en')}: ${jobLine(f)}`);
    }
  }
}
