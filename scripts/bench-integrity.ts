/**
 * A part of `npm run bench` (scripts/bench.ts, BENCH_ONLY=integrity): the integrity reports' duplicate
 * finder at 100,000 candidates, on PGlite and on PostgreSQL.
 *
 * For each database: the candidates' seed of the candidates part (scripts/bench-candidates.ts
 * seedDatabase: 100,000 candidates over the schools and years), then by SQL a stored photo for each (a
 * `files` row) and its print for the finder (`photo_hashes`). The prints are drawn, not read from
 * photos: a passport-style portrait sampled straight at 16×16 (a head, hair, shoulders on a lit ground,
 * each drawn from a seeded generator, as the demo's portraits are), so the hashes bunch as a school's
 * look-alike photos do rather than spreading evenly; 100 of them are another candidate's photo again
 * with noise added (a re-encoding). Then the full run (`scanAll`, what the 'integrity-scan' job runs)
 * is timed three times in this process, and one candidate's check (`checkPending`, what indexing wakes)
 * twenty times.
 */
import os from 'node:os';
import { openDatabase, type DatabaseTarget } from '../server/db/client';
import { checkPending, scanAll } from '../server/integrity/finder';
import { hashOfThumb, thumbOfGreys, THUMB_SIDE } from '../server/integrity/photoHash';
import { random, type Random } from '../server/demo/random';
import { TOTAL, databaseKey, onEachDatabase, rawSql, seedDatabase } from './bench-candidates';
import { recordFigure } from './benchRecord';

const RE_USED = 100;
const SCANS = 3;
const CHECKS = 20;
const AIM_MS = 60_000;

/** A look-alike portrait's greys at 16×16, drawn as the demo's portraits are (server/demo/documents.ts). */
function portraitGreys(rng: Random): number[] {
  const r = rng.next;
  const cx = 45 + (r() - 0.5) * 20;
  const cy = 44 + (r() - 0.5) * 16;
  const rx = 15 + r() * 9;
  const ry = 19 + r() * 9;
  const sx = 45 + (r() - 0.5) * 16;
  const sw = 34 + r() * 16;
  const sy = 116 + r() * 14;
  const angle = r() * Math.PI * 2;
  const slope = 20 + r() * 60;
  const ground = 170 + r() * 80;
  const skin = 50 + r() * 70;
  const clothes = r() * 200;
  const hairTop = 0.1 + r() * 0.7;
  const hairWide = 1 + r() * 0.35;
  const patches = Array.from({ length: 3 }, () => [r() * 90, r() * 112, 10 + r() * 25, (r() - 0.5) * 90]);
  const inEllipse = (x: number, y: number, ex: number, ey: number, erx: number, ery: number) =>
    ((x - ex) / erx) ** 2 + ((y - ey) / ery) ** 2 <= 1;
  const greys: number[] = [];
  for (let gy = 0; gy < THUMB_SIDE; gy++) {
    for (let gx = 0; gx < THUMB_SIDE; gx++) {
      const x = ((gx + 0.5) * 90) / THUMB_SIDE;
      const y = ((gy + 0.5) * 112) / THUMB_SIDE;
      let light = slope * (((x - 45) * Math.cos(angle) + (y - 56) * Math.sin(angle)) / 70);
      for (const [px, py, pr, pa] of patches)
        light += pa * Math.exp(-((x - px) ** 2 + (y - py) ** 2) / (pr * pr));
      let grey = ground + light;
      if (inEllipse(x, y, sx, sy, sw, 42)) grey = clothes;
      else if (x >= cx - 8 && x <= cx + 8 && y >= cy + ry * 0.6 && y <= cy + ry + 18) grey = skin;
      else if (inEllipse(x, y, cx, cy - ry * 0.15, rx * hairWide, ry * 1.05) && y < cy - ry * (0.9 - hairTop))
        grey = 21;
      else if (inEllipse(x, y, cx, cy, rx, ry)) grey = skin;
      greys.push(Math.max(0, Math.min(255, grey)));
    }
  }
  return greys;
}

async function seedPrints(target: DatabaseTarget) {
  const handle = await openDatabase(target);
  const raw = await rawSql(target, handle.pglite);
  try {
    await raw.query(`insert into files (key, kind, owner_id, content_type, size, candidate_id, field)
      select 'bench/' || id || '.png', 'candidate_upload', created_by, 'image/png', 20000, id, 'photo'
      from candidates`);
    const { rows } = await raw.query(
      `select id, candidate_id from files where field = 'photo' order by candidate_id`,
    );
    const rng = random(27);
    const greysOf: number[][] = [];
    for (const _ of rows) greysOf.push(portraitGreys(rng));
    // Re-used photos: candidate i's photo is candidate i+1's again, re-encoded (noise of a few levels).
    const step = Math.floor(rows.length / RE_USED);
    for (let n = 0; n < RE_USED; n++) {
      const i = n * step;
      greysOf[i] = greysOf[i + 1].map((g) => Math.max(0, Math.min(255, g + (rng.next() - 0.5) * 6)));
    }
    for (let start = 0; start < rows.length; start += 2000) {
      const slice = rows.slice(start, start + 2000);
      const thumbs = slice.map((_, k) => thumbOfGreys(greysOf[start + k]));
      await raw.query(
        `insert into photo_hashes (file_id, candidate_id, hash, thumb)
         select * from unnest($1::int[], $2::int[], $3::bigint[], $4::bytea[])`,
        [
          slice.map((row) => Number(row.id)),
          slice.map((row) => Number(row.candidate_id)),
          thumbs.map((thumb) => hashOfThumb(thumb).toString()),
          thumbs.map((thumb) => Buffer.from(thumb)),
        ],
      );
    }
    await raw.query('analyze');
    return rows.length;
  } finally {
    await raw.close();
    await handle.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

interface Row {
  label: string;
  photos: number;
  scans: number[];
  found: { candidates: number; pairs: number };
  photoPairs: number;
  check: number;
}

export async function benchIntegrity(): Promise<void> {
  console.log(`\nThe duplicate finder at scale: ${SCANS} full runs, ${CHECKS} single checks`);
  const rows = await onEachDatabase('integrity', async (label, env, dataDir): Promise<Row> => {
    const target: DatabaseTarget = env.DATABASE_URL
      ? { driver: 'postgres', url: env.DATABASE_URL }
      : { driver: 'pglite', dataDir };
    console.log(`${label}: seeding...`);
    await seedDatabase(target, { analyze: true, log: false });
    const photos = await seedPrints(target);
    const handle = await openDatabase(target);
    try {
      const scans: number[] = [];
      let found = { candidates: 0, pairs: 0 };
      for (let i = 0; i < SCANS; i++) {
        const started = performance.now();
        const run = await scanAll(handle.db);
        scans.push(performance.now() - started);
        console.log(`${label}: run ${i + 1}: ${JSON.stringify(run.phases)} (ms)`);
        found = { candidates: run.candidates, pairs: run.pairs };
      }
      const raw = await rawSql(target, handle.pglite);
      const { rows: counted } = await raw.query(
        'select count(*)::int as n from duplicate_pairs where same_photo',
      );
      const checks: number[] = [];
      for (let i = 0; i < CHECKS; i++) {
        await raw.query(
          `insert into integrity_pending (candidate_id) select id from candidates order by id offset ${i * 997} limit 1`,
        );
        const started = performance.now();
        await checkPending(handle.db);
        checks.push(performance.now() - started);
      }
      await raw.close();
      return { label, photos, scans, found, photoPairs: Number(counted[0].n), check: median(checks) };
    } finally {
      await handle.close();
    }
  });
  console.log(
    '\n| database | candidates (photos) | full run: median of 3 | one candidate checked: median of 20 | pairs (same photo) |',
  );
  console.log('|---|---:|---:|---:|---:|');
  for (const row of rows) {
    const flag = median(row.scans) < AIM_MS ? '' : ` (aim ${AIM_MS / 1000} s missed)`;
    // No anchor: the full run and one check are absolute (the load stored beside them).
    const key = `integrity.${databaseKey(row.label)}.n${TOTAL}`;
    recordFigure(`${key}.full_run_s`, Number((median(row.scans) / 1000).toFixed(2)), 's', 'lower');
    recordFigure(`${key}.one_check_ms`, Math.round(row.check), 'ms', 'lower');
    console.log(
      `| ${row.label} | ${row.found.candidates.toLocaleString('en')} (${row.photos.toLocaleString('en')}) | ${(median(row.scans) / 1000).toFixed(2)} s${flag} | ${row.check.toFixed(0)} ms | ${row.found.pairs} (${row.photoPairs}) |`,
    );
  }
  console.log(
    `  load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} (${os.cpus().length} cores)`,
  );
}
