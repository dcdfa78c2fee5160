import { and, asc, not } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { papers } from '../../db/schema';
import type { BuiltBlock, BuiltCard, DocumentBuilder, DocumentScope, Facts } from '../builder';
import { headingOf } from '../common';
import {
  barredAt,
  candidateByIndex,
  candidateRows,
  countCandidates,
  courseHeaderOf,
  dateOfBirthOf,
  schoolOf,
  scopeConditions,
  sexOf,
  sittingAt,
  type CandidateLine,
} from './candidateRows';
import { dietNameOf, dietOf, HALL_NOTICE } from './dietScope';

/**
 * Photocards: the card a candidate shows at every paper of a diet, which the invigilator checks against
 * the face and the hall's list. One card for each candidate sitting the diet (registered for it, or
 * entered to resit papers at it) of the chosen school and course header, or one candidate's. A
 * candidate barred from the diet by a sanction gets none (the document says how many were left out).
 */

/** Everyone sitting the diet in the scope, barred or not: what a card's facts are read from. */
const sittingWhere = (scope: DocumentScope) => and(...scopeConditions(scope), sittingAt(dietOf(scope).id));
/** Those who get a card. */
const cardsWhere = (scope: DocumentScope) => and(sittingWhere(scope), not(barredAt(dietOf(scope).id)));

/** Each course header's papers, in the board's order (their ids): fresh candidates sit them all. */
async function papersByCourseHeader(db: Database): Promise<Map<number, string[]>> {
  const rows = await db
    .select({ courseHeaderId: papers.courseHeaderId, name: papers.name })
    .from(papers)
    .orderBy(asc(papers.id));
  const map = new Map<number, string[]>();
  for (const row of rows) map.set(row.courseHeaderId, [...(map.get(row.courseHeaderId) ?? []), row.name]);
  return map;
}

/** The papers a candidate sits: the resit entry's, or all of the course header's. */
const papersOf = (line: CandidateLine, byCourseHeader: Map<number, string[]>) =>
  line.resitPapers ?? byCourseHeader.get(line.courseHeaderId) ?? [];

const otherNamesOf = (line: CandidateLine) => [line.first_name, line.middle_name].filter(Boolean).join(' ');

function cardOf(scope: DocumentScope, line: CandidateLine, byCourseHeader: Map<number, string[]>): BuiltCard {
  const card = {
    photo: line.photo,
    surname: line.last_name.toLocaleUpperCase('en-NG'),
    otherNames: otherNamesOf(line),
    candidateIndex: line.candidateIndex,
    sex: sexOf(line.gender),
    dateOfBirth: dateOfBirthOf(line),
    courseHeader: courseHeaderOf(line),
    school: schoolOf(line),
    papers: papersOf(line, byCourseHeader),
    diet: dietNameOf(dietOf(scope)),
  };
  return { key: line.candidateIndex, card, facts: cardFacts(card, line) };
}

/** What a card certifies: what it prints, and that no sanction bars its holder (a new one is a change). */
function cardFacts(card: Omit<BuiltCard['card'], 'photo'>, line: CandidateLine): Facts {
  return {
    Surname: card.surname,
    'Other names': card.otherNames,
    'Index number': card.candidateIndex,
    'Course header': card.courseHeader,
    'Training school': card.school,
    Papers: card.papers.join(', '),
    Diet: card.diet,
    Sanction: line.sanction ?? 'None',
  };
}

export const photocardBuilder: DocumentBuilder = {
  ending: 'photocard',
  count: (db, scope) => countCandidates(db, cardsWhere(scope)),
  async build(db, scope) {
    const byCourseHeader = await papersByCourseHeader(db);
    const cards = await candidateRows(db, scope, cardsWhere(scope), (page) =>
      page.map((line) => cardOf(scope, line, byCourseHeader)),
    );
    const barred = await countCandidates(db, and(sittingWhere(scope), barredAt(dietOf(scope).id)));
    const blocks: BuiltBlock[] = [
      {
        kind: 'text',
        text: 'Bring this card to every paper. The invigilator checks the photo against your face and the index number against the hall list; a card whose code does not verify is not accepted.',
      },
      { kind: 'notice', text: HALL_NOTICE },
    ];
    if (barred) {
      blocks.push({
        kind: 'notice',
        text: `${barred} candidate${barred === 1 ? ' is' : 's are'} barred from this diet by a sanction and ${barred === 1 ? 'has' : 'have'} no card.`,
      });
    }
    if (!cards.count) blocks.push({ kind: 'text', text: 'No candidates sit this diet for this choice.' });
    blocks.push({ kind: 'cards', cards });
    return { heading: headingOf(scope), blocks, facts: { Cards: String(cards.count) } };
  },
  async factsOf(db, scope, key) {
    const line = await candidateByIndex(db, scope, sittingWhere(scope), key);
    if (!line) return null;
    return cardOf(scope, line, await papersByCourseHeader(db)).facts;
  },
};
