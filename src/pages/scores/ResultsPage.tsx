import { useActorRef, useSelector } from '@xstate/react';
import { Suspense, useState } from 'react';
import { fromPromise } from 'xstate';
import { formatDateTime } from '../../../contract/format';
import { RESULTS_LISTS } from '../../../contract/lists';
import { type ResultRow } from '../../../contract/scores';
import { formDialogMachine } from '../../../machines/formDialog.machine';
import { loadPublications, publicationAction, resultActions, saveHold } from '../../api/scores';
import { useNotify } from '../../app/notify';
import { forgetResource, useResource } from '../../app/resource';
import { Button, TextField } from '../../ui/controls';
import { ListTable, ListView } from '../../ui/ListView';
import { PageFormDialog } from '../../ui/PageFormDialog';
import { useList } from '../pagedList';
import { DietPicker, ScoreTabs, tell, useDiet } from './scoreShared';
import { ResultFilters, ResultTable } from './ResultTable';

// ---------------------------------------------------------------------------------------------------
// Results (the board's).

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
  const list = useList(RESULTS_LISTS.admin, { act: resultActions });
  const refresh = () => {
    forgetResource(key);
    setRound((n) => n + 1);
    list.send({ type: 'list.refresh' });
  };
  const holdDialog = useActorRef(
    formDialogMachine.provide({
      actors: {
        submit: fromPromise(async ({ input }) => {
          const saved = await saveHold(input);
          refresh();
          return saved;
        }),
      },
    }),
    { input: { successMessage: 'Result held' } },
  );
  useNotify(holdDialog);
  const filters = useSelector(list, (s) => s.context.query.filters);
  return (
    <>
      <div className="my-4">
        <DietPicker diet={diet} onChange={setDiet} />
      </div>
      <h2 className="text-lg font-semibold">Publication</h2>
      <ListTable
        head={['Course header', 'Sheets locked', 'Results', 'Published', 'Actions']}
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
            <td className="px-4 py-2">{p.published_at ? formatDateTime(p.published_at) : 'Not published'}</td>
            <td className="px-4 py-2">
              <div className="flex flex-wrap gap-2">
                <Button
                  variant="secondary"
                  onClick={async () =>
                    (await tell(publicationAction('compute', diet, p.course_header.code))) && refresh()
                  }
                >
                  Compute<span className="sr-only"> {p.course_header.code}</span>
                </Button>
                {p.published_at ? (
                  <Button
                    variant="danger"
                    onClick={async () =>
                      (await tell(publicationAction('withdraw', diet, p.course_header.code))) && refresh()
                    }
                  >
                    Withdraw<span className="sr-only"> {p.course_header.code}</span>
                  </Button>
                ) : (
                  <Button
                    disabled={p.locked < p.sheets}
                    onClick={async () =>
                      (await tell(publicationAction('publish', diet, p.course_header.code))) && refresh()
                    }
                  >
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
        onSearch={(f) => list.send({ type: 'list.filter', filters: f })}
        board
      />
      <ListView<ResultRow> list={list} definition={RESULTS_LISTS.admin}>
        {(page, busy) => <ResultTable rows={page.items} busy={busy} list={list} />}
      </ListView>
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
