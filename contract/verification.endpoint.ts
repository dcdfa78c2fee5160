import type { VerifiedDocument } from './documents';
import { PUBLIC, endpoint, shape } from './endpoint';

/**
 * The public check of a printed code (DOCUMENT_ENDPOINTS.verify), in a file of its own: the /verify
 * page is opened from a QR code on a phone, often on a slow link, and importing the documents' other
 * endpoints would bring their query validator, and VineJS with it, into its chunk.
 */
export const VERIFY_ENDPOINT = endpoint({
  method: 'GET',
  path: '/api/verify/:code',
  roles: PUBLIC,
  summary:
    'Whether a printed code is genuine, what it certified and when, and what has changed since (no sign-in; rate-limited)',
  answer: shape<VerifiedDocument>(),
});
