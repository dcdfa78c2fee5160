import { useSelector } from '@xstate/react';
import { Suspense } from 'react';
import { formatDateTime } from '../../../contract/format';
import { RESULTS_LISTS } from '../../../contract/lists';
import { type PublicationPreview, type ResultRow } from '../../../contract/scores';
import { asFailure } from '../../../machines/failure';
import {
  loadPublicationPreview,
  loadPublications,
  publicationAction,
  resultActions,
  saveHold,
  withdrawResults,
} from '../../api/scores';
import { useReloadable } from '../../app/resource';
import { Button, TextField } from '../../ui/controls';
import { ListTable, ListView } from '../../ui/ListView';
import { PageFormDialog } from '../../ui/PageFormDialog';
import { useList, useSavingDialog, type SaveForm } from '../pagedList';
import { DietPicker, ScoreTabs, useDiet } from './scoreShared';
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

/** Compute's or publish's yes: the step, as the question's hidden fields name it. */
const takePublicationStep: SaveForm = (values) =>
  publicationAction(
    values.action === 'publish' ? 'publish' : 'compute',
    String(values.diet),
    String(values.course_header),
  );

function BoardResults() {
  const [diet, setDiet] = useDiet();
  const [publications, renewPublications] = useReloadable(`score-publications:${diet}`, () =>
    loadPublications(diet),
  );
  const list = useList(RESULTS_LISTS.admin, { act: resultActions, filters: { diet } });
  // The publications are a load of the page's own; the list reloads through its machine.
  const refresh = () => {
    renewPublications();
    list.send({ type: 'list.refresh' });
  };
  const holdDialog = useSavingDialog(saveHold, 'Result held', refresh);
  const withdrawDialog = useSavingDialog(withdrawResults, 'Results withdrawn', refresh);
  const question = useSavingDialog(takePublicationStep, 'Results updated', refresh);
  /** Asks the server what the step would do, then the question (withdraw: its form) with those numbers. */
  const ask = async (action: PublicationQuestion['action'] | 'withdraw', course: string) => {
    let preview: PublicationPreview;
    try {
      preview = await loadPublicationPreview(diet, course);
    } catch (error) {
      const { showToast } = await import('../../app/toasts');
      showToast({ type: 'notify', tone: 'error', message: asFailure(error).message });
      return;
    }
    const dialog = action === 'withdraw' ? withdrawDialog : question;
    dialog.send({ type: 'form.open', subject: action === 'withdraw' ? preview : { action, preview } });
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
      <PublicationQuestionDialog dialog={question} />
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
