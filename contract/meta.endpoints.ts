import { endpoint, PUBLIC, raw } from './endpoint';

/** The OpenAPI 3.1 document of this API (docs/openapi.json, written by `npm run openapi`), in outline. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  tags?: { name: string }[];
  paths: Record<string, unknown>;
  components?: Record<string, unknown>;
}

/** What the API says of itself: anyone may read it, as a client generator or a fuzzer would. */
export const META_ENDPOINTS = {
  openApi: endpoint({
    method: 'GET',
    path: '/api/openapi.json',
    roles: PUBLIC,
    summary: 'This API, described as an OpenAPI 3.1 document',
    answer: raw<OpenApiDocument>(),
  }),
} as const;
