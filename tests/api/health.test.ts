import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../server/db/client';
import { startTestPortal, type TestPortal } from './portal';

/** Every migration in the folder, as the journal lists them. */
const migrationCount = (): number =>
  JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')).entries.length;

let t: TestPortal;
beforeAll(async () => {
  t = await startTestPortal();
});
afterAll(() => t?.close());

describe('GET /api/health', () => {
  it('names the driver in use and says the migrations are current', async () => {
    expect(migrationCount()).toBeGreaterThanOrEqual(2);
    const response = await t.request('GET', '/api/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: {
        driver: process.env.DATABASE_URL ? 'postgres' : 'pglite',
        migrations: { applied: migrationCount(), expected: migrationCount(), current: true },
      },
    });
  });

  it('sends the security headers, with a CSP that loosens only script-src for VineJS', async () => {
    const response = await t.request('GET', '/api/health');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self' 'unsafe-eval'");
    expect(csp).not.toContain('unsafe-inline');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });

  it('answers an unknown API address with 404 in the envelope', async () => {
    const response = await t.request('GET', '/api/no-such-thing');
    expect(response.status).toBe(404);
    expect(response.body.success).toBe(false);
  });

  it('refuses a JSON body over the limit with 413', async () => {
    const response = await t.request('POST', '/api/auth/login', {
      json: { email: 'a@b.co', password: 'x'.repeat(300 * 1024) },
    });
    expect(response.status).toBe(413);
  });
});
