import { OFFENDER_PATHS } from '../../contract/offenders';
import { offenceValidator } from '../../contract/offenders.validators';
import { addToList } from './listedRows';

/**
 * The record-an-offence dialog's submit; `then` runs once the server has recorded it (the list reloads).
 * The number of diets is sent as a number when it is one, as typed otherwise (the validator says why).
 */
export const recordOffence = (then: () => void) =>
  addToList(OFFENDER_PATHS, offenceValidator, then, (values) => {
    const diets = typeof values.sanction_diets === 'string' ? values.sanction_diets.trim() : '';
    return { ...values, sanction_diets: /^\d+$/.test(diets) ? Number(diets) : diets || undefined };
  });
