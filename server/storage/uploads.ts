import { fileTypeFromBuffer } from 'file-type';
import { UPLOAD_LIMIT_BYTES } from '../../contract/constants';
import { FILES_PATH_PREFIX } from '../../contract/user';
import { isValidKey } from './storage';

/** An upload that passed its checks: its bytes, and the type and extension found in them. */
export interface Upload {
  bytes: Uint8Array;
  contentType: string;
  extension: string;
  size: number;
}

export interface UploadRule {
  /** Content types accepted, each with the extension its files are stored under. */
  types: Readonly<Record<string, string>>;
  tooLarge: string;
  notAccepted: string;
}

/** Photos: what every browser shows in an <img>. SVG is never accepted (it can carry script). */
export const IMAGE_TYPES = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
} as const;

/**
 * The upload, or the field's message. The size is checked first, then the type by the file's magic
 * bytes: the name and the Content-Type the browser sent are never trusted.
 */
export async function checkUpload(file: File, rule: UploadRule): Promise<Upload | string> {
  if (file.size > UPLOAD_LIMIT_BYTES) return rule.tooLarge;
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes.byteLength > UPLOAD_LIMIT_BYTES) return rule.tooLarge;
  const found = await fileTypeFromBuffer(bytes);
  const extension = found ? rule.types[found.mime] : undefined;
  if (!found || !extension) return rule.notAccepted;
  return { bytes, contentType: found.mime, extension, size: bytes.byteLength };
}

/** The URL a stored file is served at (server/routes/files.ts). */
export const fileUrl = (key: string) => `${FILES_PATH_PREFIX}${key}`;

/** The storage key of one of our own file URLs, or null for anything else (an outside URL, none). */
export function keyOfUrl(url: string | null | undefined): string | null {
  if (!url?.startsWith(FILES_PATH_PREFIX)) return null;
  const key = url.slice(FILES_PATH_PREFIX.length);
  return isValidKey(key) ? key : null;
}
