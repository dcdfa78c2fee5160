import { useSelector } from '@xstate/react';
import { useLiveActorRef } from '../app/useLiveActorRef';
import { formDialogMachine } from '../../machines/formDialog.machine';

type FormMachine = ReturnType<typeof formDialogMachine.provide>;

/**
 * A page that is one form (the sign-in pages' reset and forgot-password forms): the form dialog
 * machine started open, so its success closes it, which the page shows as done.
 */
export function useOpenForm(machine: FormMachine, successMessage: string) {
  const form = useLiveActorRef(machine, {
    input: { successMessage },
    snapshot: machine.resolveState({
      value: { open: 'editing' },
      context: { successMessage, subject: null, fieldErrors: {}, error: null },
    }),
  });
  const view = useSelector(form, (s) => ({
    done: s.matches('closed'),
    busy: s.hasTag('busy'),
    fields: s.context.fieldErrors,
    error: s.context.error,
  }));
  return { form, view };
}
