import { isApiFailure } from '../../contract/envelope';
import { VERIFY_ENDPOINT } from '../../contract/verification.endpoint';
import { send } from './send';

/**
 * The public check of a printed code (DOCUMENT_ENDPOINTS.verify). Its own module, so the /verify page
 * loads none of the documents' other calls. A code the board never issued answers null.
 */
export async function verifyCode(code: string) {
  try {
    return (await send(VERIFY_ENDPOINT, { params: { code } })).data;
  } catch (failure) {
    // Not a code of the board's: none it issued (404), or not even the form of one (422).
    if (isApiFailure(failure) && (failure.status === 404 || failure.status === 422)) return null;
    throw failure;
  }
}
