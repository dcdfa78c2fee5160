import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type { CandidateRow } from '../../../contract/candidates';
import type { CANDIDATES_LIST } from '../../../contract/lists';
import type { Role } from '../../../contract/roles';
import { statusToggleMachine, type StatusToggleInput } from '../../../machines/statusToggle.machine';
import type { updateVerification } from '../../api/candidateRows';
import { ListView } from '../../ui/ListView';
import type { ListRef } from '../../ui/StatusToggle';
import { useList } from '../pagedList';
import { CandidateFilters, type FilterName } from './CandidateFilters';
import { CandidateTable, type CandidateColumn, type RowTicks } from './CandidateTable';

/** A status each row changes in the list: which field, how it is saved, which values are confirmed first. */
interface RowStatus {
  field: StatusToggleInput['field'];
  updateStatus: typeof updateVerification;
  confirmValues?: readonly string[];
}

/** A candidate list of `definition`; with `status`, the list spawns one status toggle actor per row shown. */
export function useCandidateList(definition: typeof CANDIDATES_LIST, status?: RowStatus) {
  return useList(
    definition,
    status && {
      row: statusToggleMachine.provide({ actors: { updateStatus: status.updateStatus } }),
      rowInput: { field: status.field, confirmValues: status.confirmValues ?? [] },
    },
  );
}

/** A candidate list: its filters, then the table with the page's own columns, paged. */
export function CandidateList({
  list,
  definition,
  show,
  withOptions,
  role,
  action,
  columns,
  ticks,
  above,
}: {
  list: ListRef;
  definition: typeof CANDIDATES_LIST;
  show: FilterName[];
  withOptions?: boolean;
  role?: Role;
  action: CandidateColumn;
  columns?: CandidateColumn[];
  ticks?: RowTicks;
  /** What goes between the filters and the table (the page's actions on many rows). */
  above?: ReactNode;
}) {
  const filters = useSelector(list, (s) => s.context.query.filters);
  return (
    <>
      <CandidateFilters
        filters={filters}
        show={show}
        withOptions={withOptions}
        role={role}
        onFilter={(next) => list.send({ type: 'list.filter', filters: next })}
      />
      {above}
      <ListView<CandidateRow> list={list} definition={definition}>
        {(data, busy) => (
          <CandidateTable data={data} busy={busy} action={action} columns={columns} ticks={ticks} />
        )}
      </ListView>
    </>
  );
}
