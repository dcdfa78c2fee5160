import { useEffect } from 'react';
import type { NotifyEmitted } from '../../machines/notify';

interface EmitsNotify {
  on(type: 'notify', handler: (event: NotifyEmitted) => void): { unsubscribe(): void };
}

/** Toasts what a page's own actor emits. It only listens; it never sends an event. */
export function useNotify(actor: EmitsNotify) {
  useEffect(() => {
    const subscription = actor.on(
      'notify',
      (notice) => void import('./toasts').then(({ showToast }) => showToast(notice)),
    );
    return () => subscription.unsubscribe();
  }, [actor]);
}
