import type { ComponentProps } from 'react';
import { useActors } from '../app/actors';
import { PageFormDialog } from './PageFormDialog';

type FormActorName = 'profileForm' | 'passwordForm' | 'messageForm';

/** The dialog around one of the app-wide form dialog actors, named: the page's dialog, over that actor. */
export function FormDialog({
  actor,
  ...props
}: Omit<ComponentProps<typeof PageFormDialog>, 'actor'> & { actor: FormActorName }) {
  return <PageFormDialog actor={useActors()[actor]} {...props} />;
}
