import { useActorRef, useSelector } from '@xstate/react';
import { Suspense, useState } from 'react';
import { formatDateTime } from '../../../contract/format';
import { RESULTS_LISTS } from '../../../contract/lists';
import { type PublicationPreview, type ResultRow } from '../../../contract/scores';
import { confirmDialogMachine } from '../../../machines/confirmDialog.machine';
import {
  loadPublicationPreview,
  loadPublications,
  publicationAction,
  resultActions,
  saveHold,
  withdrawResults,
} from '../../api/scores';
import { forgetResource, useResource } from '../../app/resource';
import { Button, TextField } from '../../ui/controls';
import { ListTable, ListView } from '../../ui/ListView';
import { PageFormDialog } from '../../ui/PageFormDialog';
import { useList, useListDialog, type SaveForm } from '../pagedList';
import { DietPicker, ScoreTabs, tell, useDiet } from './scoreShared';
import { PublicationQuestionDialog, WithdrawDialog, type PublicationQuestion } from './PublicationDialogs';
import { ResultFilters, ResultTable } from './ResultTable';

/**
 * The board's results: one diet at a time (the picker filters everything on the page: publications and
 * their counts, the results list, holds), each course header's publication (compute, publish and
 * withdraw ask first, with the server's numbers), and every computed result beside what the schools read.
 */

export function ResultsPage() {
  return (
    <section>
      <ScoreTabs current="results" />
      <h1 className="text-2xl font-semibold">Results</h1>
      <Suspense fallback={<p className="text-slate-600">Loading…</p>}>
        <BoardResults />
      </Suspense>
    </section>
  );
}

function BoardResults() {
  const [diet, setDiet] = useDiet();
  const [round, setRound] = useState(0);
  const key = `score-publications:${diet}:${round}`;
  const publications = useResource(key, () => loadPublications(diet));
  const list = useList(RESULTS_LISTS.admin, { act: resultActions, filters: { diet } });
  // The publications are a load of the page's own; the list reloads through its machine.
  const renewPublications = () => {
    forgetResource(key);
    setRound((n) => n + 1);
  };
  const refresh = () => {
    renewPublications();
    list.send({ type: 'list.refresh' });
  };
  const afterwards =
    (save: SaveForm): SaveForm =>
    async (values) => {
      const saved = await save(values);
      renewPublications();
      return saved;
    };
  const holdDialog = useListDialog(list, afterwards(saveHold), 'Result held');
  const withdrawDialog = useListDialog(list, afterwards(withdrawResults), 'Results withdrawn');
  const question = useActorRef(confirmDialogMachine);
  /** Asks the server what the step would do, then the question (withdraw: its form) with those numbers. */
  const ask = async (action: PublicationQuestion['action'] | 'withdraw', course: string) => {
    let preview: PublicationPreview;
    try {
      preview = await loadPublicationPreview(diet, course);
    } catch (error) {
      await tell(Promise.reject(error as Error));
      return;
    }
    if (action === 'withdraw') withdrawDialog.send({ type: 'form.open', subject: preview });
    else question.send({ type: 'confirm.ask', subject: { action, preview } });
  };
  const filters = useSelector(list, (s) => s.context.query.filters);
  const chooseDiet = (code: string) => {
    setDiet(code);
    list.send({ type: 'list.filter', filters: { ...filters, diet: code } });
  };
  return (
    <>
      <div className="my-4">
        <DietPicker diet={diet} onChange={chooseDiet} />
      </div>
      <h2 className="text-lg font-semibold">Publication</h2>
      <ListTable
        head={['Course header', 'Sheets locked', 'Results computed', 'Published', 'Actions']}
        busy={false}
        empty="This diet has no score sheets yet."
        isEmpty={publications.length === 0}
      >
        {publications.map((p) => (
          <tr key={p.course_header.id} data-testid={`publication-${p.course_header.code}`}>
            <th scope="row" className="px-4 py-2 text-left font-mono">
              {p.course_header.code}
            </th>
            <td className="px-4 py-2">
              {p.locked} of {p.sheets}
            </td>
            <td className="px-4 py-2">{p.results}</td>
            <td className="px-4 py-2">
              {p.published_at ? (
                <>
                  {formatDateTime(p.published_at)}
                  <span className="block text-xs text-slate-600">
                    {p.published_results} shown to the schools
                  </span>
                </>
              ) : p.withdrawn_at ? (
                <>
                  Withdrawn {formatDateTime(p.withdrawn_at)}
                  <span className="block text-xs text-slate-600">{p.withdraw_reason}</span>
                </>
              ) : (
                'Not published'
              )}
            </td>
            <td className="px-4 py-2">
              <div className="flex flex-wrap gap-2">
                <Button variant="secondary" onClick={() => ask('compute', p.course_header.code)}>
                  Compute<span className="sr-only"> {p.course_header.code}</span>
                </Button>
                {p.published_at ? (
                  <Button variant="danger" onClick={() => ask('withdraw', p.course_header.code)}>
                    Withdraw<span className="sr-only"> {p.course_header.code}</span>
                  </Button>
                ) : (
                  <Button onClick={() => ask('publish', p.course_header.code)}>
                    Publish<span className="sr-only"> {p.course_header.code}</span>
                  </Button>
                )}
              </div>
            </td>
          </tr>
        ))}
      </ListTable>
      <div className="mt-8 flex flex-wrap items-center justify-between gap-4">
        <h2 className="text-lg font-semibold">Results</h2>
        <Button variant="secondary" onClick={() => holdDialog.send({ type: 'form.open', subject: null })}>
          Hold a result
        </Button>
      </div>
      <ResultFilters
        filters={filters}
        onSearch={(f) => list.send({ type: 'list.filter', filters: { ...f, diet } })}
        board
      />
      <ListView<ResultRow> list={list} definition={RESULTS_LISTS.admin}>
        {(page, busy) => <ResultTable rows={page.items} busy={busy} list={list} />}
      </ListView>
      <PublicationQuestionDialog
        question={question}
        onConfirm={async ({ action, preview }) =>
          (await tell(publicationAction(action, diet, preview.course_header.code))) && refresh()
        }
      />
      <WithdrawDialog dialog={withdrawDialog} />
      <PageFormDialog
        actor={holdDialog}
        title="Hold a result"
        submitLabel="Hold"
        busyLabel="Holding…"
        closeLabel="Cancel"
      >
        {(error) => (
          <>
            <input type="hidden" name="diet" value={diet} />
            <TextField
              label="Index number"
              name="candidate_index"
              autoComplete="off"
              error={error('candidate_index')}
            />
            <TextField
              label="Reason"
              name="reason"
              autoComplete="off"
              error={error('reason')}
              hint="The school sees it."
            />
          </>
        )}
      </PageFormDialog>
    </>
  );
}
