import type { ReactNode } from 'react';
import { Button } from './controls';
import { Modal } from './Modal';

/**
 * Asks before a step: Cancel, or the step's own button (red for one that cannot be taken back from the
 * page, such as removing a row from a list).
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  onConfirm,
  onCancel,
  tone = 'danger',
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  tone?: 'danger' | 'primary';
}) {
  return (
    <Modal open={open} onClose={onCancel} title={title} role="alertdialog">
      <div className="text-slate-700">{children}</div>
      <div className="mt-6 flex justify-end gap-3">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button variant={tone} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </div>
    </Modal>
  );
}
