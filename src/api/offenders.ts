import { OFFENDER_PATHS } from '../../contract/offenders';
import { offenceValidator } from '../../contract/offenders.validators';
import { addToList } from './listedRows';

/**
 * The record-an-offence dialog's save. The number of diets is sent as a number when it is one, as typed otherwise (the validator says why).
 */
export const recordOffence = addToList(OFFENDER_PATHS, offenceValidator, (values) => {
  const diets = typeof values.sanction_diets === 'string' ? values.sanction_diets.trim() : '';
  return { ...values, sanction_diets: /^\d+$/.test(diets) ? Number(diets) : diets || undefined };
});
