import { Dialog, DialogPanel } from '@headlessui/react';
import { Suspense } from 'react';
import { Slide, ToastContainer } from 'react-toastify/unstyled';
import { useEffect, useState } from 'react';
import { Redirect, useLocation } from 'wouter';
import { TOAST_AUTO_CLOSE_MS } from '../../contract/constants';
import { HOME_PATH } from '../../contract/paths';
import { useRole } from '../app/actors';
import { NotFound } from '../pages/NotFound';
import { ImpersonationDialog, LiveStateDialog, LogoutDialog, MessageBoardDialog } from './dialogs';
import { ImpersonationBanner } from './ImpersonationBanner';
import { Header } from './Header';
import { NotForYourRole } from './pages';
import { findShellPage } from './routes';
import { prefetchLater } from './prefetch';
import { Sidebar } from './Sidebar';

/** The page shell: sidebar, header and the page for the current path, checked against the role. */
export default function Shell() {
  const [location] = useLocation();
  const role = useRole();
  const [menuOpen, setMenuOpen] = useState(false);
  // A view with nothing to run (no steps, no I/O): plain React state, as the sidebar's, not a machine.
  const [liveStateOpen, setLiveStateOpen] = useState(false);
  useEffect(prefetchLater, []);
  if (!role) return null;
  if (location === '/') return <Redirect to={HOME_PATH} replace />;

  const page = findShellPage(location);
  const content = !page ? <NotFound /> : page.roles.includes(role) ? page.render() : <NotForYourRole />;
  const brand = (
    <div className="flex h-14 items-center gap-2 px-4 text-white">
      <img src="/favicon.svg" alt="" className="h-7 w-7" />
      <span className="font-semibold">Examinations Board</span>
    </div>
  );

  return (
    <div className="min-h-screen lg:pl-64 print:pl-0">
      <aside className="fixed inset-y-0 left-0 hidden w-64 overflow-y-auto bg-brand-900 lg:block print:hidden">
        {brand}
        <Sidebar role={role} />
      </aside>
      <Dialog open={menuOpen} onClose={() => setMenuOpen(false)} className="relative z-50 lg:hidden">
        <div className="fixed inset-0 bg-slate-900/40" aria-hidden="true" />
        <DialogPanel className="fixed inset-y-0 left-0 w-64 overflow-y-auto bg-brand-900">
          {brand}
          <Sidebar role={role} onNavigate={() => setMenuOpen(false)} />
        </DialogPanel>
      </Dialog>
      <ImpersonationBanner />
      <Header onOpenMenu={() => setMenuOpen(true)} />
      <main className="p-4 sm:p-6">
        <Suspense fallback={<p className="text-slate-500">Loading…</p>}>{content}</Suspense>
      </main>
      {/* Not in the profile dropdown or the sidebar: their items are the spec's. */}
      <footer className="px-4 pb-4 sm:px-6 print:hidden">
        <button
          type="button"
          className="text-sm text-slate-600 underline underline-offset-2 hover:text-slate-900"
          onClick={() => setLiveStateOpen(true)}
        >
          Live state (for support)
        </button>
      </footer>
      <LiveStateDialog open={liveStateOpen} onClose={() => setLiveStateOpen(false)} />
      <LogoutDialog />
      {role === 'admin' ? <ImpersonationDialog /> : <MessageBoardDialog />}
      {/* Toasts are announced: react-toastify gives each one role="alert". */}
      <ToastContainer
        position="top-center"
        autoClose={TOAST_AUTO_CLOSE_MS}
        hideProgressBar
        transition={Slide}
        closeOnClick
      />
    </div>
  );
}
