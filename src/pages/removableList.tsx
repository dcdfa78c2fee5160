import { useActorRef, useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { formatPersonName } from '../../contract/format';
import { LISTED_LIMITS, type ListedCandidate, type ListedRow } from '../../contract/listed';
import { confirmDialogMachine } from '../../machines/confirmDialog.machine';
import type { ListDefinition } from '../../contract/lists';
import { removeFromList, type RemoveEndpoint } from '../api/listedRows';
import { Button, TextField } from '../ui/controls';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { ListTable, ListView, SearchForm } from '../ui/ListView';
import { PageFormDialog } from '../ui/PageFormDialog';
import { CandidateLink } from './candidates/CandidateLink';
import { useList, useListDialog, type SaveForm } from './pagedList';

/**
 * What the exam offenders and resit candidates pages share: a searched, paged list (the list machine)
 * of rows about one candidate each, added through the page's dialog and removed one at a time
 * (`list.act`), each after a confirmation.
 */

export const candidateName = (c: ListedCandidate) => formatPersonName(c);

/** The add dialog, opened by a button of the same label; `save` adds the row, and the list then reloads. */
export interface AddDialog {
  label: string;
  submitLabel: string;
  busyLabel: string;
  successMessage: string;
  save: SaveForm;
}

/** A column after the index number and the name. */
export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
}

/**
 * The page: its title, the search and the add button, then the table (index number, name, `columns`,
 * and each row's remove button), the confirmation a removal asks for, and the add dialog with `fields`.
 * `lockedBecause` says why a row cannot be removed now, if it cannot.
 */
export function RemovableListPage<Row extends ListedRow>({
  title,
  definition,
  remove,
  add,
  fields,
  empty,
  columns,
  rowName,
  lockedBecause = () => undefined,
  confirm,
}: {
  title: string;
  definition: ListDefinition<Row>;
  /** The list's remove endpoint (the row's `remove` action). */
  remove: RemoveEndpoint;
  add: AddDialog;
  fields: (fieldError: (name: string) => string | undefined) => ReactNode;
  empty: { none: string; noMatch: string };
  columns: Column<Row>[];
  rowName: (row: Row) => string;
  lockedBecause?: (row: Row) => string | undefined;
  confirm: (row: Row) => ReactNode;
}) {
  const list = useList(definition, { act: removeFromList(remove) });
  // The machine takes a row action only once its page is shown: a button left enabled then would lose
  // the click.
  const view = useSelector(list, (s) => ({
    canAct: s.matches('loaded'),
    search: s.context.query.filters.search ?? '',
  }));
  const form = useListDialog(list, add.save, add.successMessage);
  // The removal's question, and the row it is about, live in the confirm dialog's machine.
  const removal = useActorRef(confirmDialogMachine);
  const asking = useSelector(removal, (s) => s.hasTag('open'));
  const pending = useSelector(removal, (s) => s.context.subject as Row | null);
  return (
    <section>
      <h1 className="mb-4 text-2xl font-semibold">{title}</h1>
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <SearchForm
          className="flex flex-wrap items-end gap-3"
          onSearch={(filters) => list.send({ type: 'list.filter', filters })}
        >
          <div className="w-72 max-w-full">
            <TextField label="Name or index number" name="search" type="search" defaultValue={view.search} />
          </div>
        </SearchForm>
        <Button onClick={() => form.send({ type: 'form.open' })}>{add.label}</Button>
      </div>
      <ListView<Row> list={list} definition={definition}>
        {(page, busy) => (
          <ListTable
            head={['Index number', 'Name', ...columns.map((column) => column.header), 'Actions']}
            busy={busy}
            empty={view.search ? empty.noMatch : empty.none}
            isEmpty={page.items.length === 0}
          >
            {page.items.map((row) => (
              <tr key={row.id}>
                <td className="px-4 py-2 align-top">
                  <CandidateLink id={row.candidate.id}>{row.candidate_index}</CandidateLink>
                </td>
                <td className="px-4 py-2 align-top">{candidateName(row.candidate)}</td>
                {columns.map((column) => (
                  <td key={column.header} className="px-4 py-2 align-top">
                    {column.cell(row)}
                  </td>
                ))}
                <td className="px-4 py-2 align-top">
                  <Button
                    variant="secondary"
                    className="whitespace-nowrap px-2 py-1"
                    disabled={!view.canAct || lockedBecause(row) !== undefined}
                    title={lockedBecause(row)}
                    aria-label={`Remove from the list: ${rowName(row)}`}
                    onClick={() => removal.send({ type: 'confirm.ask', subject: row })}
                  >
                    Remove from the list
                  </Button>
                </td>
              </tr>
            ))}
          </ListTable>
        )}
      </ListView>
      <ConfirmDialog
        open={asking}
        title="Remove from the list"
        confirmLabel="Remove"
        onCancel={() => removal.send({ type: 'confirm.cancel' })}
        onConfirm={() => {
          list.send({ type: 'list.act', action: 'remove', payload: { id: pending!.id } });
          removal.send({ type: 'confirm.accept' });
        }}
      >
        {pending && confirm(pending)}
      </ConfirmDialog>
      <PageFormDialog
        actor={form}
        title={add.label}
        submitLabel={add.submitLabel}
        busyLabel={add.busyLabel}
        closeLabel="Cancel"
      >
        {fields}
      </PageFormDialog>
    </section>
  );
}

/** The add dialog's index number field. */
export const CandidateIndexField = ({ error }: { error?: string }) => (
  <TextField
    label="Candidate index number"
    name="candidate_index"
    maxLength={LISTED_LIMITS.candidateIndexMax}
    hint="e.g. WHB/26/A1/000123"
    autoComplete="off"
    error={error}
  />
);
