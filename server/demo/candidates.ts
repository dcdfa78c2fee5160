import { sql } from 'drizzle-orm';
import {
  CERTIFICATES,
  formatCandidateIndex,
  GRADES,
  needsPriorCertificate,
  requiredUploadOf,
  type RegStatus,
  type UploadField,
} from '../../contract/candidates';
import { boardYear } from '../boardDate';
import { putUploads, recordPhotoPrints, uploadRows, type PutUpload } from '../candidates/uploads';
import type { Upload } from '../storage/uploads';
import { candidates, files, registrations } from '../db/schema';
import type { DemoAccounts, DemoSchoolCode } from './accounts';
import { areaRandom, daysAfter, daysBefore, type DemoSeed } from './context';
import type { DemoCourseHeader } from './courseHeaders';
import type { DemoDiets } from './diets';
import { demoPhoto, makeDemoDocuments } from './documents';
import { FEMALE_FIRST_NAMES, LAST_NAMES, MALE_FIRST_NAMES } from './names';
import type { Random } from './random';

/**
 * The demo's candidates: a board mid-year, with this year's intake still being indexed and verified and
 * last year's candidates registered (some sitting papers again, a few under sanction). School sizes are
 * uneven, with SHT-IB (school1's) among the busy ones; every course header has candidates.
 */

/** Candidates each school has in the demo (320 in all). */
const SCHOOL_SIZES: Record<DemoSchoolCode, number> = {
  'SHT-IB': 78,
  'CHT-CA': 62,
  'SHT-KN': 52,
  'CHT-EN': 48,
  'SHT-JS': 42,
  'CHS-IL': 38,
};

/** Each course header's share, in tenths of a percent (the bench's mix too: CHEW the largest). */
export const HEADER_WEIGHTS: Record<string, number> = {
  A1: 280,
  A2: 170,
  A3: 110,
  A4: 60,
  A5: 50,
  B1: 110,
  B2: 90,
  B3: 60,
  B4: 40,
  B5: 30,
};

/** How far back the oldest demo candidate was indexed. */
const OLDEST_DAYS = 420;
/** Stored at once (each candidate's two or three files in parallel within a batch). */
const STORE_BATCH = 24;

const GHANAIAN_NAMES = new Set(
  `Akosua Abena Adwoa Afua Ama Efua Yaa Esi Dzifa Enyonam Naa Adjoa Kwame Kofi Kwabena Kwaku Yaw Kojo
Kwesi Selorm Edem Nii Fiifi Mensah Owusu Boateng Asante Osei Agyeman Appiah Darko Amoah Ofori Quaye Tetteh
Addo Agbeko Dzomeku`.split(/\s+/),
);

/** What the later areas (offenders, resits, notifications) need to know of a demo candidate. */
export interface DemoCandidate {
  id: number;
  candidateIndex: string;
  firstName: string;
  lastName: string;
  schoolCode: DemoSchoolCode;
  courseHeader: string;
  year: number;
  regStatus: RegStatus;
  verified: boolean;
  createdAt: Date;
}

type NewCandidate = typeof candidates.$inferInsert;

interface Planned {
  row: Omit<NewCandidate, 'candidateIndex'>;
  /** Registered for the current diet (verified candidates only, as the portal's rule has it). */
  regStatus: RegStatus;
  schoolCode: DemoSchoolCode;
  courseHeader: string;
  uploads: Partial<Record<UploadField, Upload>>;
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

function plan(
  rng: Random,
  now: Date,
  accounts: DemoAccounts,
  headers: DemoCourseHeader[],
  documents: Awaited<ReturnType<typeof makeDemoDocuments>>,
): Planned[] {
  const planned: Planned[] = [];
  const people = new Set<string>();
  const headerWeights = headers.map((h) => HEADER_WEIGHTS[h.code] ?? 50);
  for (const school of accounts.schools) {
    for (let n = 0; n < SCHOOL_SIZES[school.code];) {
      const header = rng.weighted(headers, headerWeights);
      const female = rng.chance(0.66);
      const names = female ? FEMALE_FIRST_NAMES : MALE_FIRST_NAMES;
      const firstName = rng.pick(names);
      const lastName = rng.pick(LAST_NAMES);
      const middleName = rng.chance(0.5) ? rng.pick(names) : null;
      // Skewed to recent days: the year's intake is being indexed now.
      const age = 1 + Math.floor(rng.next() ** 1.6 * OLDEST_DAYS);
      const createdAt = daysBefore(now, age + rng.next() * 0.3);
      const year = boardYear(createdAt);
      const dateOfBirth = `${year - rng.int(18, 31)}-${twoDigits(rng.int(1, 12))}-${twoDigits(rng.int(1, 28))}`;
      // The duplicate rule (same person, school and course header): draw again.
      const person = `${header.code} ${firstName} ${lastName} ${dateOfBirth}`.toLowerCase();
      if (people.has(person)) continue;
      people.add(person);
      n++;

      const married = female ? rng.chance(0.3) : rng.chance(0.2);
      const ghanaian = GHANAIAN_NAMES.has(lastName) || GHANAIAN_NAMES.has(firstName);
      const prior = needsPriorCertificate(header.code);
      // Checked within days when it has waited a while; registration follows the check.
      const verified = age > 30 ? rng.chance(0.85) : age > 7 ? rng.chance(0.5) : rng.chance(0.1);
      const registered = verified && rng.chance(age > 60 ? 0.8 : 0.45);
      const verifiedAt = verified ? daysAfter(createdAt, Math.min(age - 0.5, rng.int(1, 20))) : null;
      const grades = Object.fromEntries(
        [
          'english',
          'mathematics',
          'biology',
          'chemistry',
          header.code === 'A4' ? 'food_and_nutrition' : 'physics',
        ].map((subject) => [subject, rng.pick(GRADES.slice(0, 7))]),
      );

      // Each candidate's own photo is made below, from its own stream; this draw chose one of a few
      // shared portraits once, and stays so that every other draw (and so the demo) is as it was.
      rng.next();
      const uploads: Partial<Record<UploadField, Upload>> = {};
      if (prior) uploads.olevel_certificate_upload = documents.certificates.olevel_certificate_upload;
      const required = requiredUploadOf(header.code);
      if (required === 'fn_image_upload' || required === 'nd_certificate_upload') {
        uploads[required] = documents.certificates[required];
      }
      if (rng.chance(0.3)) uploads.birth_certificate_upload = documents.certificates.birth_certificate_upload;

      planned.push({
        regStatus: registered ? 'registered' : 'unregistered',
        schoolCode: school.code,
        courseHeader: header.code,
        uploads,
        row: {
          trainingSchoolId: school.id,
          courseHeaderId: header.id,
          year,
          first_name: firstName,
          last_name: lastName,
          middle_name: middleName,
          title: female ? (married ? 'Mrs' : 'Miss') : 'Mr',
          date_of_birth: dateOfBirth,
          candidate_category:
            ghanaian && rng.chance(0.5) ? 'foreign' : rng.chance(0.9) ? 'fresh' : 'transfer',
          marital_status: married ? 'M' : 'S',
          gender: female ? 'female' : 'male',
          nationality: ghanaian ? 'GH' : rng.chance(0.97) ? 'NG' : rng.pick(['BJ', 'CM', 'TG', 'NE']),
          certificate_evaluated: prior ? rng.pick(CERTIFICATES) : null,
          year_of_certificate_evaluated: prior ? String(year - rng.int(1, 4)) : null,
          exam_number_1: prior ? String(rng.int(4_000_000_000, 4_299_999_999)) : null,
          exam_month: prior ? rng.pick(['May', 'June', 'November']) : null,
          ...grades,
          verified,
          verifiedBy: verified ? accounts.adminId : null,
          verifiedAt,
          createdBy: accounts.adminId,
          createdAt,
          updatedAt: verifiedAt ?? createdAt,
        },
      });
    }
  }
  // Indexed in the order they came, so ids and index numbers grow with time as the portal's own do.
  return planned.sort((a, b) => a.row.createdAt!.getTime() - b.row.createdAt!.getTime());
}

export async function seedCandidates(
  demo: DemoSeed,
  accounts: DemoAccounts,
  headers: DemoCourseHeader[],
  diets: DemoDiets,
): Promise<DemoCandidate[]> {
  const { tx, now } = demo;
  const planned = plan(areaRandom('candidates'), now, accounts, headers, await makeDemoDocuments());
  const faces = areaRandom('faces');
  for (const p of planned) p.uploads.photo = await demoPhoto(faces);

  // Numbers from the board's one sequence, as indexing takes them, so the next indexing follows on.
  const { rows } = (await tx.execute(
    sql`select nextval('candidate_index_seq')::int as n from generate_series(1, ${planned.length})`,
  )) as unknown as { rows: { n: number }[] };
  const sequence = rows.map((r) => Number(r.n)).sort((a, b) => a - b);
  const indexNumbers = planned.map((p, i) => formatCandidateIndex(p.row.year, p.courseHeader, sequence[i]));
  const returned = await tx
    .insert(candidates)
    .values(planned.map((p, i) => ({ ...p.row, candidateIndex: indexNumbers[i] })))
    .returning({ id: candidates.id, candidateIndex: candidates.candidateIndex });
  // By index number: the order RETURNING answers in is not promised.
  const idOf = new Map(returned.map((r) => [r.candidateIndex, r.id]));
  const inserted = indexNumbers.map((candidateIndex) => ({ id: idOf.get(candidateIndex)!, candidateIndex }));

  // Each candidate's files stored as an upload of the index form is (server-made keys), then recorded.
  const stored: PutUpload[][] = [];
  for (let start = 0; start < planned.length; start += STORE_BATCH) {
    const batch = planned.slice(start, start + STORE_BATCH);
    stored.push(
      ...(await Promise.all(
        batch.map(async (p) => {
          const put = await putUploads(demo.storage, demo.log, p.uploads);
          demo.storedKeys.push(...put.map((entry) => entry.key));
          return put;
        }),
      )),
    );
  }
  const recorded = await tx
    .insert(files)
    .values(inserted.flatMap((candidate, i) => uploadRows(candidate.id, accounts.adminId, stored[i])))
    .returning({ id: files.id, key: files.key, candidateId: files.candidateId });
  const ownerOf = new Map(recorded.map((row) => [row.key, row.candidateId!]));
  await recordPhotoPrints(tx, recorded, stored.flat(), (key) => ownerOf.get(key)!);

  // Registrations: the current diet's as planned, made over the weeks since its window opened (after
  // the check, so the dashboard's chart has a season's shape); the past diet's, everyone verified who
  // sat it.
  const opened = daysBefore(now, 38);
  const registeredAt = (checked: Date, i: number) => {
    const from = checked > opened ? checked : opened;
    const at = daysAfter(from, ((i * 7) % 23) * 0.6 + 0.1);
    return at < now ? at : daysBefore(now, 0.02 * ((i % 5) + 1));
  };
  const registered = inserted.flatMap((candidate, i) => {
    const p = planned[i];
    const satPast = p.row.verified && p.row.createdAt! < daysBefore(now, 150);
    return [
      ...(p.regStatus === 'registered'
        ? [
            {
              dietId: diets.current.id,
              candidateId: candidate.id,
              regStatus: 'registered' as const,
              createdAt: registeredAt(p.row.verifiedAt ?? p.row.createdAt!, i),
            },
          ]
        : []),
      ...(satPast
        ? [{ dietId: diets.past.id, candidateId: candidate.id, regStatus: 'registered' as const }]
        : []),
    ].map((row) => ({ ...row, changedBy: accounts.schoolAdminOf[p.schoolCode] ?? accounts.adminId }));
  });
  for (let start = 0; start < registered.length; start += 1000) {
    await tx.insert(registrations).values(registered.slice(start, start + 1000));
  }

  return inserted.map((candidate, i) => ({
    id: candidate.id,
    candidateIndex: candidate.candidateIndex,
    firstName: planned[i].row.first_name,
    lastName: planned[i].row.last_name,
    schoolCode: planned[i].schoolCode,
    courseHeader: planned[i].courseHeader,
    year: planned[i].row.year,
    regStatus: planned[i].regStatus,
    verified: planned[i].row.verified!,
    createdAt: planned[i].row.createdAt!,
  }));
}
