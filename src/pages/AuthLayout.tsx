import type { ReactNode } from 'react';

/** The frame of the sign-in pages: no shell, the board's name, one card. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-10">
      <div className="mb-6 flex items-center gap-3">
        <img src="/favicon.svg" alt="" className="h-10 w-10" />
        <div>
          <p className="text-lg font-semibold text-brand-900">Health Examinations Board</p>
          <p className="text-sm text-slate-600">Examination portal</p>
        </div>
      </div>
      <section className="w-full max-w-sm rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h1 className="mb-4 text-xl font-semibold">{title}</h1>
        {children}
      </section>
    </main>
  );
}
