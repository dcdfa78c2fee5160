import { toast } from 'react-toastify/unstyled';
import type { NotifyEmitted } from '../../machines/notify';

/** Loaded with the shell chunk: a machine's `notify` becomes a toast. */
export function showToast(notice: NotifyEmitted) {
  if (notice.tone === 'success') toast.success(notice.message);
  else toast.error(notice.message);
}
