import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { DashboardLink } from '../../../contract/dashboard';

const NUMBER = new Intl.NumberFormat('en-NG');

/**
 * One number of the dashboard and what it counts, a link to the list it counts (its filters in the
 * address). A link to the whole list, because the list has no filter for it, says so in its title.
 */
export function Stat({
  label,
  value,
  link,
  note,
}: {
  label: string;
  value: number | string;
  link: DashboardLink;
  note?: ReactNode;
}) {
  return (
    <li className="min-w-0">
      <Link
        href={link.href}
        className="block h-full rounded-md bg-white px-3 py-2 ring-1 ring-slate-200 hover:ring-brand-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
        title={link.filtered ? undefined : 'Opens the whole list: it has no filter for this'}
      >
        <span className="block text-2xl font-semibold tabular-nums text-brand-700" data-testid="stat-value">
          {typeof value === 'number' ? NUMBER.format(value) : value}
        </span>
        <span className="block text-sm text-slate-700">{label}</span>
        {note && <span className="block text-xs text-slate-500">{note}</span>}
      </Link>
    </li>
  );
}

/** A titled group of numbers: two a row on a phone, more on a wider screen. */
export function StatGroup({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mt-4" aria-label={title}>
      <h2 className="mb-2 font-semibold">{title}</h2>
      <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-4">{children}</ul>
    </section>
  );
}
