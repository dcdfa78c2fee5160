import { useSelector } from '@xstate/react';
import { formatDateTime } from '../../../contract/format';
import {
  PUBLICATION_QUESTIONS,
  RESULT_OUTCOME_LABELS,
  type PublicationPreview,
  type ResultChange,
  type ShownResult,
} from '../../../contract/scores';
import { Alert, Button, TextField } from '../../ui/controls';
import { Modal } from '../../ui/Modal';
import { PageFormDialog, useDialogSubject, type FormDialogRef } from '../../ui/PageFormDialog';

/**
 * The questions compute, publish and withdraw ask first, each saying what will happen with the server's
 * numbers (GET /api/admin/results/preview), each through the form dialog machine (its subject: the step
 * and its preview): compute and publish as a question whose yes is the form, withdraw as a form asking
 * for its reason. A publication that
 * is not complete is not asked about: the refusal's sentence is shown instead.
 */

export interface PublicationQuestion {
  action: 'compute' | 'publish';
  preview: PublicationPreview;
}

const shownText = (shown: ShownResult | null) =>
  shown
    ? [shown.final_mark, shown.grade, RESULT_OUTCOME_LABELS[shown.outcome]].filter(Boolean).join(' ')
    : '—';

function Changes({ preview }: { preview: PublicationPreview }) {
  const changes = preview.changes;
  if (!changes) return null;
  const { added, removed, changed } = changes.counts;
  if (!added && !removed && !changed) {
    return <p className="mt-3">Nothing changes against the last publication.</p>;
  }
  const rows: ResultChange[] = [...changes.changed, ...changes.added, ...changes.removed];
  return (
    <div className="mt-3">
      <p>
        Against the last publication
        {preview.withdrawn_at ? ` (withdrawn ${formatDateTime(preview.withdrawn_at)})` : ''}: {changed}{' '}
        changed, {added} added, {removed} removed.
      </p>
      <div className="mt-2 max-h-64 overflow-auto">
        <table className="w-full text-left text-sm" data-testid="publication-changes">
          <caption className="sr-only">What changes for each candidate</caption>
          <thead>
            <tr>
              <th scope="col" className="py-1 pr-2">
                Candidate
              </th>
              <th scope="col" className="py-1 pr-2">
                Published
              </th>
              <th scope="col" className="py-1">
                Will be
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.candidate_id}>
                <th scope="row" className="py-1 pr-2 font-normal">
                  <span className="font-mono text-xs">{row.candidate_index}</span> {row.name}
                </th>
                <td className="py-1 pr-2">{shownText(row.before)}</td>
                <td className="py-1">{shownText(row.after)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/**
 * Compute's and publish's question (a form dialog whose form is the step: its submit computes or
 * publishes), or publish's refusal when something is missing.
 */
export function PublicationQuestionDialog({ dialog }: { dialog: FormDialogRef }) {
  const open = useSelector(dialog, (s) => s.hasTag('open'));
  const asked = useDialogSubject<PublicationQuestion>(dialog);
  if (!asked) return null;
  const { action, preview } = asked;
  const code = preview.course_header.code;
  if (action === 'publish' && preview.missing) {
    const close = () => dialog.send({ type: 'form.close' });
    return (
      <Modal open={open} onClose={close} title={`${code} cannot be published yet`} role="alertdialog">
        <Alert tone="error">{preview.missing}</Alert>
        <div className="mt-6 flex justify-end">
          <Button variant="secondary" onClick={close}>
            Close
          </Button>
        </div>
      </Modal>
    );
  }
  return (
    <PageFormDialog
      actor={dialog}
      role="alertdialog"
      title={action === 'publish' ? `Publish the results of ${code}?` : `Compute the results of ${code}?`}
      submitLabel={action === 'publish' ? 'Publish' : 'Compute'}
      busyLabel={action === 'publish' ? 'Publishing…' : 'Computing…'}
      closeLabel="Cancel"
    >
      {() => (
        <>
          <input type="hidden" name="action" value={action} />
          <input type="hidden" name="diet" value={preview.diet.code} />
          <input type="hidden" name="course_header" value={code} />
          <p className="text-slate-700">{PUBLICATION_QUESTIONS[action](preview)}</p>
          {action === 'publish' && <Changes preview={preview} />}
        </>
      )}
    </PageFormDialog>
  );
}

/** Withdraw's question: what the schools lose, and the reason (required, kept in the audit log). */
export function WithdrawDialog({ dialog }: { dialog: FormDialogRef }) {
  const preview = useDialogSubject<PublicationPreview>(dialog);
  return (
    <PageFormDialog
      actor={dialog}
      title={`Withdraw the results of ${preview?.course_header.code ?? ''}?`}
      submitLabel="Withdraw"
      busyLabel="Withdrawing…"
      closeLabel="Cancel"
    >
      {(error) =>
        preview && (
          <>
            <p className="text-slate-700">{PUBLICATION_QUESTIONS.withdraw(preview)}</p>
            <input type="hidden" name="diet" value={preview.diet.code} />
            <input type="hidden" name="course_header" value={preview.course_header.code} />
            <TextField
              label="Why they are withdrawn"
              name="reason"
              autoComplete="off"
              error={error('reason')}
              hint="Kept in the audit log."
            />
          </>
        )
      }
    </PageFormDialog>
  );
}
