import { AUDIT_CHAIN_ENDPOINTS as E } from '../../contract/auditChain.endpoints';
import { readChainHead, verifyChain } from '../auditChain';
import { dbOf } from '../http/context';
import { ok } from '../http/respond';
import { serve, type Route } from '../http/route';

/** The audit chain's head, and the check of the whole log (a board admin's, server/auditChain.ts). */
export const auditChainRoutes: Route[] = [
  serve(E.head, async (c) => ok(c, await readChainHead(dbOf(c)))),
  serve(E.verify, async (c) => {
    const { printed_id, printed_hash } = c.req.valid('json');
    const printed =
      printed_id !== undefined && printed_hash !== undefined
        ? { id: printed_id, hash: printed_hash }
        : undefined;
    return ok(c, await verifyChain(dbOf(c), printed));
  }),
];
