import type { BroadcastAttachment } from '../../../contract/broadcasts';
import { downloadAttachment } from '../../api/broadcasts';
import { Button } from '../../ui/controls';

/** What both sides show of a broadcast: its body as text (never HTML), and its files to download. */

export function BroadcastBody({ body }: { body: string }) {
  return <p className="whitespace-pre-wrap break-words text-slate-800">{body}</p>;
}

const sizeOf = (bytes: number) =>
  bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1000))} KB`;

export function Attachments({
  role,
  broadcastId,
  files,
}: {
  role: 'admin' | 'school_admin';
  broadcastId: number;
  files: BroadcastAttachment[];
}) {
  if (!files.length) return null;
  return (
    <div className="mt-4">
      <h3 className="text-sm font-semibold">Attachments</h3>
      <ul className="mt-1 space-y-1">
        {files.map((file) => (
          <li key={file.id}>
            <Button
              variant="link"
              onClick={() => void downloadAttachment(role, broadcastId, file.id, file.name).catch(() => {})}
            >
              {file.name}
            </Button>{' '}
            <span className="text-sm text-slate-600">({sizeOf(file.size)})</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
