import { useActorRef, useSelector } from '@xstate/react';
import type { CandidateRow } from '../../../contract/candidates';
import type { Page } from '../../../contract/pagination';
import { listMachine } from '../../../machines/list.machine';
import { pageFetcher } from '../../api/lists';

/** A page's list of candidates from one endpoint, through the shared list machine. */
export function useCandidateList(path: string, filters: Record<string, string> = {}) {
  const list = useActorRef(listMachine.provide({ actors: { fetchPage: pageFetcher(path) } }), {
    input: { filters },
  });
  const view = useSelector(list, (s) => ({
    loading: s.hasTag('loading'),
    data: s.context.data as Page<CandidateRow> | null,
    error: s.context.error,
    filters: s.context.query.filters,
  }));
  return { list, view };
}
