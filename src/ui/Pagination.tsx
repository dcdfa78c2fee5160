import { totalLabel, type Page } from '../../contract/pagination';
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
  if (data.total === 0 && !data.has_more) return null;
  const first = (data.page - 1) * data.per_page + 1;
  const last = (data.page - 1) * data.per_page + data.items.length;
  return (
    <nav aria-label="Pages" className="mt-4 flex items-center justify-between gap-4 text-sm text-slate-600">
      <p>
        {data.items.length
          ? `${first}–${last} of ${totalLabel(data, last)}`
          : `None here, of ${totalLabel(data)}`}
      </p>
      <div className="flex gap-2">
        <Button variant="secondary" disabled={busy || data.page <= 1} onClick={() => onPage(data.page - 1)}>
          Previous
        </Button>
        <Button variant="secondary" disabled={busy || !data.has_more} onClick={() => onPage(data.page + 1)}>
          Next
        </Button>
      </div>
    </nav>
  );
}
