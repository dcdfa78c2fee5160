import { pageCount, type Page } from '../../contract/pagination';
import { Button } from './controls';

/** Previous / next with where the user is; enough for lists read page by page on a slow link. */
export function Pagination({
  data,
  onPage,
  busy,
}: {
  data: Page<unknown>;
  onPage: (page: number) => void;
  busy: boolean;
}) {
  const pages = pageCount(data);
  if (data.total === 0) return null;
  const first = (data.page - 1) * data.per_page + 1;
  const last = Math.min(data.total, data.page * data.per_page);
  return (
    <nav aria-label="Pages" className="mt-4 flex items-center justify-between gap-4 text-sm text-slate-600">
      <p>
        {first}–{last} of {data.total}
      </p>
      <div className="flex gap-2">
        <Button variant="secondary" disabled={busy || data.page <= 1} onClick={() => onPage(data.page - 1)}>
          Previous
        </Button>
        <Button
          variant="secondary"
          disabled={busy || data.page >= pages}
          onClick={() => onPage(data.page + 1)}
        >
          Next
        </Button>
      </div>
    </nav>
  );
}
