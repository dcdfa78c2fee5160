import { useActorRef } from '@xstate/react';
import { listMachine } from '../../../machines/list.machine';
import { statusToggleMachine, type StatusToggleInput } from '../../../machines/statusToggle.machine';
import { pageFetcher } from '../../api/lists';
import type { updateVerification } from '../../api/candidateRows';

/** A status each row changes in the list: which field, how it is saved, which values are confirmed first. */
export interface RowStatus {
  field: StatusToggleInput['field'];
  updateStatus: typeof updateVerification;
  confirmValues?: readonly string[];
}

/**
 * A page's list of candidates from one endpoint, through the shared list machine; with `status`, the list
 * spawns one status toggle actor per row shown.
 */
export function useCandidateList(path: string, status?: RowStatus) {
  return useActorRef(
    listMachine.provide({
      actors: {
        fetchPage: pageFetcher(path),
        ...(status && {
          row: statusToggleMachine.provide({ actors: { updateStatus: status.updateStatus } }),
        }),
      },
    }),
    {
      input: status && {
        rowInput: { field: status.field, confirmValues: status.confirmValues ?? [] },
      },
    },
  );
}

export type CandidateListRef = ReturnType<typeof useCandidateList>;
