import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { OPENAPI_FILE, renderOpenApi } from './openapiDocument';

/** `npm run openapi`: writes docs/openapi.json from the endpoint definitions (scripts/openapiDocument.ts). */
writeFileSync(OPENAPI_FILE, renderOpenApi());
console.log(`wrote ${relative(process.cwd(), OPENAPI_FILE)}`);
