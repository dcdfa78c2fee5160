import type { TestProject } from 'vitest/node';
import { UI_PORT } from '../../vitest.config';
import { startTestPortal } from '../api/portal';

declare module 'vitest' {
  export interface ProvidedContext {
    portalUrl: string;
    portalDataDir: string;
    /** The board admin's token, signed in once here: test files signing in the same account at once
     * would void each other's mailed codes. */
    adminToken: string;
  }
}

/**
 * The ui project's portal runs here, in Node, not inside a test file: under jsdom, PGlite takes itself
 * for a browser half-way (jsdom's Blob has no arrayBuffer) and cannot load its extensions.
 */
export default async function setup(project: TestProject) {
  const portal = await startTestPortal({ PORT: String(UI_PORT) });
  project.provide('portalUrl', portal.url);
  project.provide('portalDataDir', portal.dataDir);
  project.provide('adminToken', await portal.signIn('admin@example.org'));
  return () => portal.close();
}
