import { META_ENDPOINTS as E } from '../../contract/meta.endpoints';
// The committed document, bundled into the server by esbuild (scripts/start.mjs), so the portal serves
// the very file tests/contract/openapi.test.ts checks against the definitions.
import document from '../../docs/openapi.json';
import { serve, type Route } from '../http/route';

// Written once: the document is half a megabyte, and stringifying it took every request's time.
const DOCUMENT = JSON.stringify(document);

/** The API's own description (scripts/openapiDocument.ts makes it from the endpoint definitions). */
export const metaRoutes: Route[] = [
  serve(E.openApi, (c) => c.body(DOCUMENT, 200, { 'content-type': 'application/json' })),
];
