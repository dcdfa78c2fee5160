import { RESIT_PATHS } from '../../contract/resits';
import { resitValidator } from '../../contract/resits.validators';
import type { Role } from '../../contract/roles';
import { REPEATED_VALUE_SEPARATOR } from '../ui/formValues';
import { addToList } from './listedRows';

/** The add-a-resit dialog's save: the ticked papers arrive one a line. */
export const addResit = (role: Role) =>
  addToList(RESIT_PATHS[role], resitValidator, (values) => {
    const papers = typeof values.papers === 'string' ? values.papers.split(REPEATED_VALUE_SEPARATOR) : [];
    return { ...values, papers: papers.filter(Boolean) };
  });
