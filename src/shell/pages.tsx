import { Link } from 'wouter';
import { HOME_PATH } from '../../contract/paths';

/** The plain pages of the shell; each area's real screens replace AreaBeingBuilt in its own issue. */

export function AreaBeingBuilt({ title }: { title: string }) {
  return (
    <section>
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="mt-4 rounded-md bg-white p-6 text-slate-600 ring-1 ring-slate-200">
        This area is being built.
      </p>
    </section>
  );
}

export function NotForYourRole() {
  return (
    <section className="rounded-md bg-white p-6 ring-1 ring-slate-200" role="alert">
      <h1 className="text-2xl font-semibold">Not available for your role</h1>
      <p className="mt-2 text-slate-600">
        This page is not available for your role. Ask the board if you need it.
      </p>
      <Link href={HOME_PATH} className="mt-4 inline-block text-brand-700 underline">
        Go to the dashboard
      </Link>
    </section>
  );
}
