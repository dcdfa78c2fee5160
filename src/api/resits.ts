import { RESIT_ENDPOINTS as E } from '../../contract/resits.endpoints';
import type { Role } from '../../contract/roles';
import { REPEATED_VALUE_SEPARATOR } from '../ui/formValues';
import { addToList } from './listedRows';

/** The add-a-resit dialog's save: the ticked papers arrive one a line. */
export const addResit = (role: Role) =>
  addToList(E.add[role], (values) => {
    const papers = typeof values.papers === 'string' ? values.papers.split(REPEATED_VALUE_SEPARATOR) : [];
    return { ...values, papers: papers.filter(Boolean) };
  });
