import { apiUrl } from './apiUrl';
import { failureFromBody, NETWORK_FAILURE, noticeUnauthenticated } from './client';
import { readToken } from './cookies';

/**
 * A file the API makes (a list's CSV export, bulk indexing's template and report, a document's PDF),
 * fetched with the session's bearer token and handed to the browser as a download under the name the
 * server gives it. A refusal is thrown as the portal's failure, in the user's words.
 */
export async function downloadFile(path: string, fallbackName: string): Promise<void> {
  const token = readToken();
  let response: Response;
  try {
    response = await fetch(apiUrl(path), { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  } catch {
    throw NETWORK_FAILURE;
  }
  if (!response.ok) {
    const failure = failureFromBody(response.status, await response.json().catch(() => null));
    noticeUnauthenticated(failure);
    throw failure;
  }
  const blob = await response.blob();
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName;
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // After the browser has taken the file.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
