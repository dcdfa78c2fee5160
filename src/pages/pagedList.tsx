import { useActorRef } from '@xstate/react';
import { useLiveActorRef } from '../app/useLiveActorRef';
import { useState } from 'react';
import { fromPromise, type AnyActorLogic, type PromiseActorLogic } from 'xstate';
import { filterNames, listParams, viewFromParams, type ListDefinition } from '../../contract/lists';
import { formDialogMachine, type FormValues } from '../../machines/formDialog.machine';
import {
  createListMachine,
  type ListAction,
  type ListInput,
  type ListQuery,
  type ListRow,
} from '../../machines/list.machine';
import { csvExporter, pageFetcher } from '../api/lists';
import { useNotify } from '../app/notify';
import type { ListRef } from '../ui/StatusToggle';

export interface ListOptions {
  /** What the rows' buttons do (`list.act`): mark as read, remove from the list. */
  act?: PromiseActorLogic<{ message?: string }, ListAction>;
  /** The logic of each row's own actor (a status toggle), spawned with `rowInput` or each `rowInputs`. */
  row?: AnyActorLogic;
  rowInput?: ListInput['rowInput'];
  rowInputs?: ListInput['rowInputs'];
  /** Filters the page sets to begin with over the address bar's (the diet a page's picker shows). */
  filters?: Record<string, string>;
  /**
   * False for a list inside another page (a record's History): it starts from `filters` alone and
   * leaves the address bar to the page, whose own list it is not.
   */
  inAddress?: boolean;
}

/**
 * Writes the query a list asks for into the address bar (replacing the entry, so Back leaves the page
 * rather than walking its pages), so that a reload or a copied link shows the same rows. Only the
 * list's own parameters change; the page's others (the notifications' tab, say) stay.
 */
function showQueryInAddress(definition: ListDefinition<unknown>, query: ListQuery) {
  const params = new URLSearchParams(window.location.search);
  for (const name of [...filterNames(definition), 'sort', 'direction', 'page']) params.delete(name);
  listParams(definition, query).forEach((value, name) => params.set(name, value));
  const search = params.toString();
  const url = `${window.location.pathname}${search ? `?${search}` : ''}${window.location.hash}`;
  if (url !== `${window.location.pathname}${window.location.search}${window.location.hash}`) {
    window.history.replaceState(window.history.state, '', url);
  }
}

/**
 * The one list hook: a list of `definition` over the list machine, starting from the page, filters and
 * order in the address bar, which it keeps up to date as the query changes (the machine's `showQuery`
 * action, not an effect). The machine's `notify` events (a row action's success) become toasts.
 */
const withFilters = <V extends { filters: Record<string, string> }>(
  view: V,
  filters?: Record<string, string>,
) =>
  filters
    ? {
        ...view,
        filters: { ...view.filters, ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v)) },
      }
    : view;

export function useList<Row extends ListRow>(definition: ListDefinition<Row>, options: ListOptions = {}) {
  const general = definition as ListDefinition<unknown>;
  // Made once a mount: the machine and its actors are the list's for as long as the page shows it.
  const [machine] = useState(() =>
    createListMachine<Row>().provide({
      actors: {
        fetchPage: pageFetcher(definition),
        exportRows: csvExporter(definition),
        ...(options.act && { act: options.act }),
        ...(options.row && { row: options.row }),
      },
      actions: {
        showQuery: (_, { query }) => {
          if (options.inAddress !== false) showQueryInAddress(general, query);
        },
      },
    }),
  );
  const list = useActorRef(machine, {
    input: {
      ...withFilters(
        viewFromParams(
          general,
          new URLSearchParams(options.inAddress === false ? '' : window.location.search),
        ),
        options.filters,
      ),
      rowInput: options.rowInput,
      rowInputs: options.rowInputs,
    },
  });
  useNotify(list);
  return list as unknown as ListRef;
}

/** What a list's dialog does with the form's values: the server's save, answering its sentence. */
export type SaveForm = (values: FormValues) => Promise<{ message?: string }>;

/**
 * A dialog that saves: the form dialog machine, whose submit runs `save` and then `afterwards` (the
 * page reads again what it shows), so the page shows what the server now holds. Its success becomes a
 * toast with `successMessage` (or the server's words). The one way a page refreshes after a dialog saves.
 */
export function useSavingDialog(save: SaveForm, successMessage: string, afterwards: () => void) {
  const dialog = useLiveActorRef(
    formDialogMachine.provide({
      actors: {
        submit: fromPromise(async ({ input }: { input: FormValues }) => {
          const saved = await save(input);
          afterwards();
          return saved;
        }),
      },
    }),
    { input: { successMessage } },
  );
  useNotify(dialog);
  return dialog;
}

/** A dialog that saves into a list: after the save, the list is sent `list.refresh`. */
export const useListDialog = (list: ListRef, save: SaveForm, successMessage: string) =>
  useSavingDialog(save, successMessage, () => list.send({ type: 'list.refresh' }));
