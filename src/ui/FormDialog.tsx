import type { FormEvent, ReactNode } from 'react';
import type { FormValues } from '../../machines/formDialog.machine';
import type { AppActors } from '../app/appActors';
import { useAppActor, useActors } from '../app/actors';
import { Alert, Button } from './controls';
import { Modal } from './Modal';

type FormActorName = 'profileForm' | 'passwordForm' | 'messageForm';

/** The dialog around a form dialog machine: open while the machine is open, its buttons from the
 * machine's state, and the form's values sent as they are (files included). */
export function FormDialog({
  actor,
  title,
  submitLabel,
  busyLabel,
  closeLabel,
  children,
}: {
  actor: FormActorName;
  title: string;
  submitLabel: string;
  busyLabel: string;
  closeLabel: string;
  children: (fieldError: (name: string) => string | undefined) => ReactNode;
}) {
  const actors: AppActors = useActors();
  const ref = actors[actor];
  const view = useAppActor(actor, (s) => ({
    open: s.hasTag('open'),
    busy: s.hasTag('busy'),
    fieldErrors: s.context.fieldErrors,
    error: s.context.error,
  }));
  const close = () => ref.send({ type: 'form.close' });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values: FormValues = {};
    new FormData(event.currentTarget).forEach((value, name) => {
      values[name] = value;
    });
    ref.send({ type: 'form.submit', values });
  };
  return (
    <Modal open={view.open} onClose={view.busy ? () => {} : close} title={title}>
      <form onSubmit={submit} className="space-y-4" aria-busy={view.busy || undefined}>
        {view.error && <Alert tone="error">{view.error}</Alert>}
        {children((name) => view.fieldErrors[name]?.[0])}
        <div className="flex justify-end gap-3 pt-2">
          <Button type="button" variant="secondary" onClick={close} disabled={view.busy}>
            {closeLabel}
          </Button>
          <Button type="submit" busy={view.busy} busyLabel={busyLabel}>
            {submitLabel}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
