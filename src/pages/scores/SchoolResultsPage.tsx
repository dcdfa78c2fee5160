import { Suspense } from 'react';
import { useSelector } from '@xstate/react';
import { RESULTS_LISTS } from '../../../contract/lists';
import { type ResultRow } from '../../../contract/scores';
import { ListView } from '../../ui/ListView';
import { PageTabs } from '../../ui/PageTabs';
import { useList } from '../pagedList';
import { useRole } from '../../app/actors';
import { ResultFilters, ResultTable } from './ResultTable';

// ---------------------------------------------------------------------------------------------------
// A school's results (under Registered Candidates).

export function SchoolResultsPage() {
  const role = useRole();
  const list = useList(RESULTS_LISTS.school_admin);
  const filters = useSelector(list, (s) => s.context.query.filters);
  if (role !== 'school_admin') return null;
  return (
    <section>
      <PageTabs
        label="Registered Candidates"
        tabs={[
          { href: '/candidate/candidate-registered', label: 'Registered Candidates', current: false },
          { href: '/candidate/candidate-registered/results', label: 'Results', current: true },
        ]}
      />
      <h1 className="text-2xl font-semibold">Results</h1>
      <p className="text-slate-600">Your candidates’ results, as the board publishes them.</p>
      <Suspense fallback={<p className="text-slate-600">Loading the diets…</p>}>
        <ResultFilters filters={filters} onSearch={(f) => list.send({ type: 'list.filter', filters: f })} />
      </Suspense>
      <ListView<ResultRow> list={list} definition={RESULTS_LISTS.school_admin}>
        {(page, busy) => <ResultTable rows={page.items} busy={busy} />}
      </ListView>
    </section>
  );
}
