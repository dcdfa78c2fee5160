import { OFFENDER_PATHS } from '../../contract/offenders';
import { offenceValidator } from '../../contract/offenders.validators';
import { addToList } from './listedRows';

/** The record-an-offence dialog's submit; `then` runs once the server has recorded it (the list reloads). */
export const recordOffence = (then: () => void) => addToList(OFFENDER_PATHS, offenceValidator, then);
