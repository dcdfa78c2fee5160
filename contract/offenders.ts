/**
 * Exam offenders (spec: 'Offender: id'; sections 2 and 4: the rows can be removed from the displayed
 * list). An offence is recorded against an indexed candidate by their index number, at an exam diet. Its
 * sanction runs for a number of diets after that one (`sanction_diets`), or by dates (from
 * `sanction_from` to `sanction_until`, both inclusive; no end: indefinitely); a diet it covers (by
 * dates: one whose papers fall in them) cannot be registered or entered for a resit. The VineJS
 * validator is in offenders.validators.ts.
 */

import { DATE_MESSAGES } from './dates';
import { formatDate } from './format';
import { LISTED_LIMITS, LISTED_MESSAGES, type ListedRow } from './listed';

export const OFFENCE_LIMITS = {
  ...LISTED_LIMITS,
  offenceMax: 500,
  sanctionMax: 500,
  sanctionDietsMax: 10,
} as const;

export const OFFENDER_MESSAGES = {
  ...LISTED_MESSAGES,
  dietRequired: 'Choose the diet the offence was committed at',
  dietUnknown: 'Choose a diet from the list',
  sanctionDietsInvalid: 'Enter a whole number of diets from 1 to 10',
  offenceRequired: 'Describe the offence',
  sanctionRequired: 'Enter the sanction',
  sanctionFromRequired: 'Enter the date the sanction starts, or the number of diets it runs for',
  dateInvalid: DATE_MESSAGES.invalid,
  untilBeforeFrom: 'The sanction cannot end before it starts',
  recorded: 'The offence is recorded.',
  removed: 'The offence is removed from the list.',
  notFound: 'There is no such offence in the list.',
} as const;

/**
 * A row of the exam offenders list. `active`: the sanction is in force: it covers the diet current for
 * registration, or (by dates) runs today, Lagos time.
 */
export interface OffenderRow extends ListedRow {
  offence: string;
  sanction: string;
  /** A sanction by diets: this many diets after the offence's. */
  sanction_diets: number | null;
  /** YYYY-MM-DD (a sanction by dates). */
  sanction_from: string | null;
  /** YYYY-MM-DD, or null: indefinitely. */
  sanction_until: string | null;
  active: boolean;
}

const diets = (n: number) => (n === 1 ? '1 diet' : `${n} diets`);

/** How long a sanction runs, as the list and the refusals say it. */
export function sanctionTerm(row: {
  sanction_diets: number | null;
  sanction_from: string | null;
  sanction_until: string | null;
  diet: { name: string };
}): string {
  if (row.sanction_diets) return `for ${diets(row.sanction_diets)} after ${row.diet.name}`;
  const from = row.sanction_from ? formatDate(row.sanction_from) : '';
  return row.sanction_until ? `${from} to ${formatDate(row.sanction_until)}` : `from ${from}, indefinitely`;
}

/** Why registration for a diet is refused while a sanction covers it (both roles; the reason is the offence). */
export function sanctionBlocksMessage(
  sanction: {
    offence: string;
    sanction_diets: number | null;
    sanction_until: string | null;
    diet: { name: string };
  },
  what: 'registered' | 'entered for a resit',
): string {
  const term = sanction.sanction_diets
    ? `for ${diets(sanction.sanction_diets)} after ${sanction.diet.name}`
    : sanction.sanction_until
      ? `until ${formatDate(sanction.sanction_until)}`
      : 'with no end date';
  return `This candidate is under an exam sanction ${term} (${sanction.offence}), so cannot be ${what}`;
}
