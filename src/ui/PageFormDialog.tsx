import { useSelector } from '@xstate/react';
import type { FormEvent, ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { formDialogMachine } from '../../machines/formDialog.machine';
import { Alert, Button } from './controls';
import { formValuesOf } from './formValues';
import { Modal } from './Modal';

/** A form dialog actor: an app-wide one, or a page's own. */
export type FormDialogRef = ActorRefFrom<typeof formDialogMachine>;

/**
 * What the dialog is about (`form.open`'s `subject`, kept in the machine's context): the row being
 * edited, or null for a new one. The page that opens the dialog knows the type it put there.
 */
export function useDialogSubject<Subject>(actor: FormDialogRef): Subject | null {
  return useSelector(actor, (s) => s.context.subject as Subject | null);
}

/**
 * The dialog around a form dialog actor, a page's own or (through FormDialog) an app-wide one: open
 * while the machine is open, its buttons from the machine's state, the form's values sent as they are
 * (files included). A name given more than once arrives as one text of its values, one a line. Field
 * messages of a list's items (`papers.0`) show beside the list.
 */
export function PageFormDialog({
  actor,
  title,
  submitLabel,
  busyLabel,
  closeLabel,
  role = 'dialog',
  children,
}: {
  actor: FormDialogRef;
  title: string;
  submitLabel: string;
  busyLabel: string;
  closeLabel: string;
  /** `alertdialog` for a question asked before a step (publish these results?). */
  role?: 'dialog' | 'alertdialog';
  children: (fieldError: (name: string) => string | undefined) => ReactNode;
}) {
  const view = useSelector(actor, (s) => ({
    open: s.hasTag('open'),
    busy: s.hasTag('busy'),
    fieldErrors: s.context.fieldErrors,
    error: s.context.error,
  }));
  const close = () => actor.send({ type: 'form.close' });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    actor.send({ type: 'form.submit', values: formValuesOf(event.currentTarget) });
  };
  const fieldError = (name: string) =>
    view.fieldErrors[name]?.[0] ??
    Object.entries(view.fieldErrors).find(([key]) => key.startsWith(`${name}.`))?.[1][0];
  return (
    <Modal open={view.open} onClose={view.busy ? () => {} : close} title={title} role={role}>
      <form onSubmit={submit} noValidate className="space-y-4" aria-busy={view.busy || undefined}>
        {view.error && <Alert tone="error">{view.error}</Alert>}
        {/* A long form scrolls inside the dialog, so its buttons stay on a small screen. */}
        <div className="-mx-1 max-h-[calc(100dvh-16rem)] space-y-4 overflow-y-auto px-1 pb-1">
          {children(fieldError)}
        </div>
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
