import { Link } from 'wouter';

/** Course Headers and Exam Diets: the board's two settings of what is examined, and when. */
export function CourseTabs({ current }: { current: 'courses' | 'diets' }) {
  const tab = (href: string, label: string, here: boolean) => (
    <Link
      href={href}
      aria-current={here ? 'page' : undefined}
      className={`rounded-t-md px-3 py-2 text-sm font-medium ${here ? 'bg-white text-brand-700 ring-1 ring-slate-200' : 'text-slate-600 hover:text-brand-700'}`}
    >
      {label}
    </Link>
  );
  return (
    <nav aria-label="Courses and diets" className="mb-4 flex gap-2 border-b border-slate-200">
      {tab('/courses', 'Course headers', current === 'courses')}
      {tab('/courses/diets', 'Exam diets', current === 'diets')}
    </nav>
  );
}
