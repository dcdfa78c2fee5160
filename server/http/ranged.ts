import type { AppContext } from './context';
import { NOTHING_HERE, refuse } from './respond';

/**
 * A stored file served so a broken download resumes (RFC 9110 §14): `Accept-Ranges: bytes` and a strong
 * ETag on every answer; a `Range: bytes=a-b` (or `a-`, or `-n`, the last n) answered 206 with that part
 * and its Content-Range; `If-Range` with another tag (the file changed since the part before) answered
 * 200 with the whole file, as the RFC says; a range past the end 416. Several ranges in one request are
 * answered with the whole file (allowed, and no download manager needs them).
 */
export interface RangedFile {
  size: number;
  etag: string;
  contentType: string;
  fileName: string;
  /** Bytes `start` to `end`, inclusive. */
  open(start: number, end: number): Promise<ReadableStream<Uint8Array> | null>;
}

/** The one range asked for, or 'whole' (none, several, or not understood), or 'unsatisfiable'. */
function rangeOf(header: string | undefined, size: number): { start: number; end: number } | 'whole' | 'unsatisfiable' {
  const match = header?.trim().match(/^bytes=(\d*)-(\d*)$/);
  if (!match || (match[1] === '' && match[2] === '')) return 'whole';
  if (match[1] === '') {
    const last = Number(match[2]);
    if (last === 0) return 'unsatisfiable';
    return { start: Math.max(size - last, 0), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

export async function rangedDownload(c: AppContext, file: RangedFile): Promise<Response> {
  const headers: Record<string, string> = {
    'Content-Type': file.contentType,
    'Content-Disposition': `attachment; filename="${file.fileName}"`,
    'Accept-Ranges': 'bytes',
    ETag: file.etag,
    'X-Content-Type-Options': 'nosniff',
  };
  const ifRange = c.req.header('if-range');
  const asked = ifRange && ifRange !== file.etag ? 'whole' : rangeOf(c.req.header('range'), file.size);
  if (asked === 'unsatisfiable') {
    return new Response(null, { status: 416, headers: { ...headers, 'Content-Range': `bytes */${file.size}` } });
  }
  const { start, end } = asked === 'whole' ? { start: 0, end: file.size - 1 } : asked;
  const body = file.size === 0 ? null : await file.open(start, end);
  if (file.size > 0 && !body) return refuse(c, 404, NOTHING_HERE);
  return new Response(body, {
    status: asked === 'whole' ? 200 : 206,
    headers: {
      ...headers,
      'Content-Length': String(file.size === 0 ? 0 : end - start + 1),
      ...(asked === 'whole' ? {} : { 'Content-Range': `bytes ${start}-${end}/${file.size}` }),
    },
  });
}
