import { useSelector } from '@xstate/react';
import { GRID_LABELS } from '../../../contract/scores';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import type { SheetActor } from './openSheets';

/**
 * The questions a sheet asks before it is submitted or locked (the sheet's actor is in confirmingSubmit or
 * confirmingLock), each saying what will happen with the numbers the page already has. Yes and no go
 * back to the actor; the dialog traps the focus and answers Escape as no (Headless UI).
 */

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A marker submits their grid: how many candidates, what they can no longer do, what stays blind. */
export function SubmitDialog({ sheet }: { sheet: SheetActor }) {
  const asking = useSelector(sheet, (s) => s.matches({ shown: 'confirmingSubmit' }));
  const data = useSelector(sheet, (s) => s.context.data);
  if (!data || (data.grid !== 'one' && data.grid !== 'two')) return null;
  const mine = GRID_LABELS[data.grid].toLowerCase();
  const other = GRID_LABELS[data.grid === 'one' ? 'two' : 'one'].toLowerCase();
  const otherSubmitted = data.sheet.state !== 'open';
  return (
    <ConfirmDialog
      open={asking}
      title={`Submit ${mine}’s marks?`}
      confirmLabel="Submit"
      tone="primary"
      onCancel={() => sheet.send({ type: 'sheet.submit.cancel' })}
      onConfirm={() => sheet.send({ type: 'sheet.submit.confirm' })}
    >
      <p data-testid="submit-question">
        Submit {mine}’s marks for {plural(data.sheet.candidates, 'candidate', 'candidates')}? You cannot
        change a mark afterwards without giving a reason;{' '}
        {otherSubmitted
          ? `${other} has submitted, so both marks are compared at once and scripts out of tolerance go to the third marker.`
          : `${other}’s marks stay hidden from you until they submit.`}
      </p>
    </ConfirmDialog>
  );
}

/**
 * The board locks a sheet: how many scripts, how many the third marker decided (an exam sheet: read
 * from the scripts out of tolerance the page shows; null for an in-course sheet), and how it can change
 * afterwards.
 */
export function LockDialog({
  sheet,
  decided,
  waiting,
}: {
  sheet: SheetActor;
  decided: number | null;
  waiting: number;
}) {
  const asking = useSelector(sheet, (s) => s.matches({ shown: 'confirmingLock' }));
  const data = useSelector(sheet, (s) => s.context.data);
  if (!data) return null;
  const candidates = data.sheet.candidates;
  const what =
    decided === null
      ? `In-course scores of ${plural(candidates, 'candidate', 'candidates')}; scores can change afterwards only after unlocking with a reason.`
      : `${plural(candidates, 'script', 'scripts')}, ${decided} decided by the third marker; marks can change afterwards only after unlocking with a reason.`;
  return (
    <ConfirmDialog
      open={asking}
      title="Lock the sheet?"
      confirmLabel="Lock"
      tone="primary"
      onCancel={() => sheet.send({ type: 'sheet.lock.cancel' })}
      onConfirm={() => sheet.send({ type: 'sheet.lock.confirm' })}
    >
      <p data-testid="lock-question">Lock the sheet? {what}</p>
      {waiting > 0 && (
        <p className="mt-2 text-red-800">
          {plural(waiting, 'script still waits', 'scripts still wait')} for the third marker: the sheet cannot
          be locked before they are marked.
        </p>
      )}
    </ConfirmDialog>
  );
}
