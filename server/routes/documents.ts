import { DOCUMENT_INLINE_LIMIT, DOCUMENT_MESSAGES as M, DOCUMENTS } from '../../contract/documents';
import { DOCUMENT_ENDPOINTS as E } from '../../contract/documents.endpoints';
import { ROLES } from '../../contract/roles';
import { isDocumentEnding } from '../documents/params';
import { catalogueOf, setSchoolPrinting } from '../documents/permissions';
import { printedDocumentOf, printRequestOf, startPrinting } from '../documents/print';
import { verifyCode } from '../documents/verify';
import { takeHit } from '../auth/throttle';
import { NotFound, Refused } from '../errors';
import { callerOf, dbOf, transact, type AppContext } from '../http/context';
import { ok } from '../http/respond';
import { serve, type Route } from '../http/route';

/**
 * Printable documents (server/documents/): what the caller may print and choose it by, a document built
 * for its print page (JSON; the PDF and its jobs are served by their own routes), the board's choice of
 * what schools may print, and the public check of a printed code.
 */

/** Checks of printed codes a client address may make: plenty for a hall checking cards, few for a guesser. */
export const VERIFY_LIMIT = { max: 60, windowMinutes: 1 };

const endingOf = (c: AppContext) => {
  const ending = c.req.param('ending') ?? '';
  if (!isDocumentEnding(ending)) throw new NotFound(M.unknownDocument);
  return ending;
};

export const documentRoutes: Route[] = [
  ...ROLES.flatMap((role) => [
    serve(E.catalogue[role], async (c) => ok(c, await catalogueOf(dbOf(c), callerOf(c)))),
    serve(E.print[role], async (c) => {
      const printing = await startPrinting(
        printRequestOf(c),
        c.req.param('ending') ?? '',
        c.req.valid('query'),
        {
          refuseOver: { max: DOCUMENT_INLINE_LIMIT, message: M.tooManyToShow },
        },
      );
      return ok(c, await printedDocumentOf(printing));
    }),
  ]),
  serve(E.schoolPrinting, async (c) => {
    const ending = endingOf(c);
    const { allowed } = c.req.valid('json');
    await transact(c, (tx, actor) => setSchoolPrinting(tx, actor, ending, allowed));
    return ok(c, undefined, M.schoolPrintingChanged(DOCUMENTS[ending].title, allowed));
  }),
  serve(E.verify, async (c) => {
    // Counted before the code is read, so a guesser's wrong codes count as much as right ones.
    const taken = await takeHit(dbOf(c), [
      { bucket: `verify:ip:${c.get('ip') ?? 'unknown'}`, ...VERIFY_LIMIT },
    ]);
    if (!taken) throw new Refused(429, M.tooManyChecks);
    return ok(c, await verifyCode(dbOf(c), c.req.param('code') ?? ''));
  }),
];
