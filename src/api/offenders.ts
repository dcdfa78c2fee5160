import { OFFENDER_ENDPOINTS as E } from '../../contract/offenders.endpoints';
import { addToList } from './listedRows';

/**
 * The record-an-offence dialog's save. The number of diets is sent as a number when it is one, as typed otherwise (the validator says why).
 */
export const recordOffence = addToList(E.record, (values) => {
  const diets = typeof values.sanction_diets === 'string' ? values.sanction_diets.trim() : '';
  return { ...values, sanction_diets: /^\d+$/.test(diets) ? Number(diets) : diets || undefined };
});
