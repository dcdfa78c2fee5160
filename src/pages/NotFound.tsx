import { Link } from 'wouter';
import { HOME_PATH } from '../../contract/paths';

export function NotFound() {
  return (
    <section className="mx-auto max-w-xl p-8 text-center">
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="mt-2 text-slate-600">There is no page at this address.</p>
      <Link href={HOME_PATH} className="mt-6 inline-block text-brand-700 underline">
        Go to the dashboard
      </Link>
    </section>
  );
}
