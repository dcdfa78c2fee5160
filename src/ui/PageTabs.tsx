import { Link } from 'wouter';

/** An area's pages as tabs above its heading (Course headers and Exam diets; Payments' three). */
export function PageTabs({
  label,
  tabs,
}: {
  /** The navigation's name, for screen readers. */
  label: string;
  tabs: { href: string; label: string; current: boolean }[];
}) {
  return (
    <nav aria-label={label} className="mb-4 flex flex-wrap gap-2 border-b border-slate-200">
      {tabs.map((tab) => (
        <Link
          key={tab.href}
          href={tab.href}
          aria-current={tab.current ? 'page' : undefined}
          className={`rounded-t-md px-3 py-2 text-sm font-medium ${tab.current ? 'bg-white text-brand-700 ring-1 ring-slate-200' : 'text-slate-600 hover:text-brand-700'}`}
        >
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}
