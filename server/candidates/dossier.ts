import { alias } from 'drizzle-orm/pg-core';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { CANDIDATE_OUTCOME_MESSAGES as O, UPLOAD_FIELDS, requiredUploadOf } from '../../contract/candidates';
import {
  CANDIDATE_DOCUMENTS,
  printPageHref,
  type CandidateDossier,
  type DossierPrintable,
  type DossierUpload,
} from '../../contract/candidateDossier';
import { DOCUMENTS } from '../../contract/documents';
import type { PrintDocumentEnding } from '../../contract/navigation';
import type { Role } from '../../contract/roles';
import type { Database } from '../db/client';
import { candidates, courseHeaders, diets, files, nationalities, trainingSchools, users } from '../db/schema';
import { schoolPrintingChoices } from '../documents/permissions';
import { NotFound } from '../errors';
import type { ListScope } from '../lists/route';
import { offencesOf, paymentsOf, registrationsOf, resultsOf } from './history';
import { PRINT_PHOTO_FIELD } from './uploads';

/**
 * A candidate's record page (contract/candidateDossier.ts): one query a section. The first reads the
 * candidate within the caller's scope (another school's candidate is not found, as an unknown id, so
 * ids cannot be probed); the others run side by side once it is found, each on an index of its table
 * by candidate (files, registrations, payment items, exam offences, published results). The history's
 * readers are server/candidates/history.ts, the same the printed record (candidate-info) reads.
 */

/** Whose record it is and who reads it. */
interface DossierCaller {
  role: Role;
  scope: ListScope;
}

const verifier = alias(users, 'verifier');

async function identityOf(db: Database, id: number, scope: ListScope) {
  const [row] = await db
    .select({
      id: candidates.id,
      candidateIndex: candidates.candidateIndex,
      title: candidates.title,
      firstName: candidates.first_name,
      middleName: candidates.middle_name,
      lastName: candidates.last_name,
      sex: candidates.gender,
      dateOfBirth: candidates.date_of_birth,
      nationalityCode: candidates.nationality,
      nationalityName: nationalities.name,
      maritalStatus: candidates.marital_status,
      category: candidates.candidate_category,
      schoolId: trainingSchools.id,
      schoolCode: trainingSchools.code,
      schoolName: trainingSchools.name,
      courseHeaderCode: courseHeaders.code,
      courseHeaderTitle: courseHeaders.title,
      year: candidates.year,
      indexedAt: candidates.createdAt,
      verified: candidates.verified,
      verifiedBy: verifier.name,
      verifiedAt: candidates.verifiedAt,
      currentDietCode: sql<string | null>`(select ${diets.code} from ${diets} where ${diets.current})`,
      currentDietName: sql<string | null>`(select ${diets.name} from ${diets} where ${diets.current})`,
    })
    .from(candidates)
    .innerJoin(trainingSchools, eq(trainingSchools.id, candidates.trainingSchoolId))
    .innerJoin(courseHeaders, eq(courseHeaders.id, candidates.courseHeaderId))
    .leftJoin(nationalities, eq(nationalities.code, candidates.nationality))
    .leftJoin(verifier, eq(verifier.id, candidates.verifiedBy))
    .where(
      and(
        eq(candidates.id, id),
        scope.kind === 'school'
          ? // A school admin without a school sees no candidate (null matches nothing).
            sql`${candidates.trainingSchoolId} = ${scope.schoolId}`
          : undefined,
      ),
    );
  return row ?? null;
}

/**
 * Every upload field: stored or missing, and whether the course header requires it; and the photo the
 * page shows: the small print photo (server/candidates/printPhoto.ts, a few kilobytes) when one is made,
 * else the original upload (up to 2 MB; its print photo is still to come from the print photos job).
 */
async function uploadsOf(db: Database, id: number, courseHeader: string) {
  const stored = await db
    .select({ field: files.field, key: files.key, contentType: files.contentType })
    .from(files)
    .where(and(eq(files.candidateId, id), inArray(files.field, [...UPLOAD_FIELDS, PRINT_PHOTO_FIELD])));
  const byField = new Map(stored.map((row) => [row.field, row]));
  const own = requiredUploadOf(courseHeader);
  const uploads = UPLOAD_FIELDS.map((field): DossierUpload => {
    const file = byField.get(field);
    return {
      field,
      key: file?.key ?? null,
      content_type: file?.contentType ?? null,
      required: field === 'photo' || field === own,
    };
  });
  const photo = (byField.get(PRINT_PHOTO_FIELD) ?? byField.get('photo'))?.key ?? null;
  return { uploads, photo };
}

/**
 * The documents about the candidate the caller may print: the record sheet and the index form, and
 * the photocard of the diet current for registration once the candidate is registered for it (a card
 * is what a registered candidate shows at each paper). Schools print what the registry lets them.
 */
function printableFor(
  mayPrint: Record<PrintDocumentEnding, boolean> | null,
  candidateIndex: string,
  currentDiet: string | null,
  registeredNow: boolean,
): DossierPrintable[] {
  return CANDIDATE_DOCUMENTS.flatMap((ending): DossierPrintable[] => {
    const definition = DOCUMENTS[ending];
    if (mayPrint && !mayPrint[ending]) return [];
    if (ending !== 'photocard') {
      return [
        { ending, title: definition.title, href: printPageHref(ending, { candidate: candidateIndex }) },
      ];
    }
    if (!currentDiet || !registeredNow) return [];
    const query = { diet: currentDiet, candidate: candidateIndex };
    return [{ ending, title: definition.title, href: printPageHref(ending, query) }];
  });
}

/** The record page of candidate `id` as `caller` may read it; NotFound when it is not theirs to read. */
export async function candidateDossier(
  db: Database,
  caller: DossierCaller,
  id: number,
  today: string,
): Promise<CandidateDossier> {
  const who = await identityOf(db, id, caller.scope);
  if (!who) throw new NotFound(O.notFound);
  const [{ uploads, photo }, registered, paid, offences, results, mayPrint] = await Promise.all([
    uploadsOf(db, id, who.courseHeaderCode),
    registrationsOf(db, id),
    paymentsOf(db, id),
    offencesOf(db, id, today),
    resultsOf(db, id),
    // A board admin prints every document; a school admin those the board lets schools print now.
    caller.role === 'admin' ? null : schoolPrintingChoices(db),
  ]);
  const registeredNow = registered.some((row) => row.current && row.reg_status === 'registered');
  return {
    id: who.id,
    candidate_index: who.candidateIndex,
    photo,
    identity: {
      title: who.title,
      first_name: who.firstName,
      middle_name: who.middleName,
      last_name: who.lastName,
      sex: who.sex,
      date_of_birth: who.dateOfBirth,
      nationality: { code: who.nationalityCode, name: who.nationalityName ?? who.nationalityCode },
      marital_status: who.maritalStatus,
      category: who.category,
      school: { id: who.schoolId, code: who.schoolCode, name: who.schoolName },
      course_header: { code: who.courseHeaderCode, title: who.courseHeaderTitle },
      year: who.year,
      indexed_at: who.indexedAt.toISOString(),
    },
    documents: {
      uploads,
      verification: {
        verified: who.verified,
        by: who.verified ? who.verifiedBy : null,
        at: who.verified ? (who.verifiedAt?.toISOString() ?? null) : null,
      },
    },
    registrations: registered,
    payments: paid,
    offences,
    results,
    current_diet:
      who.currentDietCode && who.currentDietName
        ? { code: who.currentDietCode, name: who.currentDietName }
        : null,
    printable: printableFor(mayPrint, who.candidateIndex, who.currentDietCode, registeredNow),
  };
}
