import { asc, desc, eq } from 'drizzle-orm';
import { DOCUMENTS, type DocumentCatalogue, type DocumentChoice } from '../../contract/documents';
import type { PrintDocumentEnding } from '../../contract/navigation';
import { audit, userOf, type Actor } from '../audit';
import type { Database } from '../db/client';
import { courseHeaders, diets, papers, schoolDocumentChoices, trainingSchools } from '../db/schema';
import type { Caller } from '../http/context';

/**
 * Who may print what: board admins every document; school admins, for their own school, the documents
 * the board lets schools print (its choice per document, kept in school_document_choices; without one,
 * the registry's default DOCUMENTS[e].schools).
 */

/** The board's current choice for schools, per document. */
export async function schoolPrintingChoices(db: Database): Promise<Record<PrintDocumentEnding, boolean>> {
  const rows = await db.select().from(schoolDocumentChoices);
  const chosen = new Map(rows.map((row) => [row.ending, row.allowed]));
  return Object.fromEntries(
    Object.values(DOCUMENTS).map((d) => [d.ending, chosen.get(d.ending) ?? d.schools]),
  ) as Record<PrintDocumentEnding, boolean>;
}

/** Whether training schools may print this document now. */
export async function schoolsMayPrint(db: Database, ending: PrintDocumentEnding): Promise<boolean> {
  const [row] = await db
    .select({ allowed: schoolDocumentChoices.allowed })
    .from(schoolDocumentChoices)
    .where(eq(schoolDocumentChoices.ending, ending));
  return row?.allowed ?? DOCUMENTS[ending].schools;
}

/** The board lets schools print a document, or stops them; audited when it changes anything. */
export async function setSchoolPrinting(
  tx: Database,
  actor: Actor,
  ending: PrintDocumentEnding,
  allowed: boolean,
): Promise<void> {
  const before = await schoolsMayPrint(tx, ending);
  await tx
    .insert(schoolDocumentChoices)
    .values({ ending, allowed, changedBy: userOf(actor) })
    .onConflictDoUpdate({
      target: schoolDocumentChoices.ending,
      set: { allowed, changedBy: userOf(actor), updatedAt: new Date() },
    });
  if (before !== allowed) {
    await audit(tx, actor, {
      action: 'document.school_printing_changed',
      entityId: ending,
      before: { schools_may_print: before },
      after: { schools_may_print: allowed },
    });
  }
}

/**
 * What Print Documents offers the caller: the documents they may print (a school admin: those the board
 * lets schools print) and what to choose them by (a school admin: their own school only).
 */
export async function catalogueOf(db: Database, caller: Pick<Caller, 'role' | 'trainingSchoolId'>) {
  const choices = await schoolPrintingChoices(db);
  const documents: DocumentChoice[] = Object.values(DOCUMENTS)
    .map((definition) => ({ ...definition, schoolsMayPrint: choices[definition.ending] }))
    .filter((document) => caller.role === 'admin' || document.schoolsMayPrint);
  const schoolRows = await db
    .select({ id: trainingSchools.id, code: trainingSchools.code, name: trainingSchools.name })
    .from(trainingSchools)
    .orderBy(asc(trainingSchools.code));
  const [dietRows, headerRows, paperRows] = await Promise.all([
    db
      .select({ code: diets.code, name: diets.name, current: diets.current })
      .from(diets)
      .orderBy(desc(diets.firstPaperOn), desc(diets.id)),
    db
      .select({ code: courseHeaders.code, name: courseHeaders.title })
      .from(courseHeaders)
      .orderBy(asc(courseHeaders.code)),
    db
      .select({ id: papers.id, courseHeader: courseHeaders.code, name: papers.name })
      .from(papers)
      .innerJoin(courseHeaders, eq(courseHeaders.id, papers.courseHeaderId))
      .orderBy(asc(courseHeaders.code), asc(papers.name)),
  ]);
  const catalogue: DocumentCatalogue = {
    documents,
    options: {
      diets: dietRows,
      schools: schoolRows
        .filter((school) => caller.role === 'admin' || school.id === caller.trainingSchoolId)
        .map(({ code, name }) => ({ code, name })),
      courseHeaders: headerRows,
      papers: paperRows,
    },
  };
  return catalogue;
}
