import { META_ENDPOINTS as E } from '../../contract/meta.endpoints';
import { serve, type Route } from '../http/route';

// The committed document, bundled into the server by esbuild (scripts/start.mjs), so the portal serves
// the very file tests/contract/openapi.test.ts checks against the definitions. Imported when first
// asked for, not with the server: half a megabyte of JSON made every start (and every test file) slower.
let document: Promise<string> | undefined;
const documentText = () =>
  (document ??= import('../../docs/openapi.json').then((module) => JSON.stringify(module.default)));

/** The API's own description (scripts/openapiDocument.ts makes it from the endpoint definitions). */
export const metaRoutes: Route[] = [
  serve(E.openApi, async (c) => c.body(await documentText(), 200, { 'content-type': 'application/json' })),
];
