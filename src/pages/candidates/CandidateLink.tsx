import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { candidateRecordPath } from '../../../contract/navigation';

/**
 * A candidate's index number or name in a list, opening their record page. The list it was opened
 * from travels in the history entry's state, so the sidebar keeps that list's entry marked while the
 * record is shown (src/shell/Sidebar.tsx).
 */
export function CandidateLink({ id, children }: { id: number; children: ReactNode }) {
  const [location] = useLocation();
  return (
    <Link
      href={candidateRecordPath(id)}
      state={{ from: location }}
      className="text-brand-700 underline underline-offset-2"
    >
      {children}
    </Link>
  );
}
