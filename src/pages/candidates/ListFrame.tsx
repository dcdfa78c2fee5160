import type { ReactNode } from 'react';
import type { CandidateRow } from '../../../contract/candidates';
import type { Page } from '../../../contract/pagination';
import { Alert, Button } from '../../ui/controls';

/** Loading, failure with retry, or the list: the same three for every candidate list. */
export function ListFrame({
  data,
  error,
  onRetry,
  children,
}: {
  data: Page<CandidateRow> | null;
  error: string | null;
  onRetry: () => void;
  children: (data: Page<CandidateRow>) => ReactNode;
}) {
  return (
    <>
      {error && (
        <div className="mb-3">
          <Alert tone="error">
            {error}{' '}
            <Button variant="link" onClick={onRetry}>
              Try again
            </Button>
          </Alert>
        </div>
      )}
      {data ? children(data) : !error && <p className="text-slate-500">Loading…</p>}
    </>
  );
}
