import { describe, expect, it } from 'vitest';
import { BADGE_CAP, badgeText } from '../../contract/constants';
import {
  PRINT_DOCUMENT_ENDINGS,
  PRINT_DOCUMENT_TITLES,
  SIDEBAR,
  isEntryActive,
  sidebarFor,
} from '../../contract/navigation';
import { PRINT_DOCUMENT_PREFIX, isShellLess } from '../../contract/paths';

/** The sidebar table of spec section 2, copied by hand from the spec rather than from the code. */
const SPEC_SIDEBAR = [
  ['/overview', 'Dashboard', 'admin, school admin'],
  ['/candidate/index-a-candidate', 'Candidate Index Form', 'admin'],
  ['/candidate/candidate-search', 'Candidate Search', 'admin'],
  ['/candidate/edit-candidate', 'Edit Candidates', 'admin'],
  ['/candidate/candidate-indexed', 'Indexed Candidates', 'admin'],
  ['/candidate/candidate-registered', 'Registered Candidates', 'admin, school admin'],
  ['/candidate/resit', 'Resit Candidates', 'admin, school admin'],
  ['/candidate/offender/candidate-exam-offenders', 'Exam Offenders', 'admin'],
  ['/school', 'Training Schools', 'admin'],
  ['/courses', 'Course Headers', 'admin'],
  ['/score', 'Score Entry', 'admin'],
  ['/print-document', 'Print Documents', 'admin, school admin'],
  ['/payments', 'Payments', 'admin, school admin'],
  ['/notifications', 'Notifications', 'admin'],
] as const;

/** The spec's "Visible to" column in the contract's role names. */
const roles = (visibleTo: string) =>
  visibleTo.split(', ').map((role) => (role === 'school admin' ? 'school_admin' : role));

/** Spec section 2, printable document endings, in the spec's order. */
const SPEC_PRINT_ENDINGS = [
  'doc',
  'practical-marksheet',
  'verified-candidate-list',
  'unverified-candidate-list',
  'oral-marksheet',
  'indexed-candidate-list',
  'resit-candidate-list',
  'fresh-candidate-list',
  'research-project',
  'research-project-aa2',
  'project-study',
  'fail-pass-stats',
  'zonal-leaders-marksheet',
  'result-analysis',
  'course-reg-stats',
  'course-index-stats',
  'school-performance',
  'all-schools-exam-perf',
  'candidate-list',
  'photocard',
  'candidate-info',
  'candidate-index-form',
];

describe('the sidebar (spec section 2)', () => {
  it('is exactly the spec table: 14 entries, paths, labels and roles, in order', () => {
    expect(SIDEBAR).toHaveLength(14);
    expect(
      SIDEBAR.map((entry) => ({ path: entry.path, label: entry.label, roles: [...entry.roles] })),
    ).toEqual(SPEC_SIDEBAR.map(([path, label, visibleTo]) => ({ path, label, roles: roles(visibleTo) })));
  });

  it('shows the admin every entry, in order', () => {
    expect(sidebarFor('admin').map((entry) => entry.label)).toEqual(SPEC_SIDEBAR.map(([, label]) => label));
  });

  it('shows a school admin exactly Dashboard, Registered Candidates, Resit Candidates, Print Documents, Payments', () => {
    expect(sidebarFor('school_admin').map((entry) => entry.label)).toEqual([
      'Dashboard',
      'Registered Candidates',
      'Resit Candidates',
      'Print Documents',
      'Payments',
    ]);
    expect(sidebarFor('school_admin').map((entry) => entry.path)).toEqual([
      '/overview',
      '/candidate/candidate-registered',
      '/candidate/resit',
      '/print-document',
      '/payments',
    ]);
  });
});

describe('isEntryActive: the entry path is contained in the current path', () => {
  it.each([
    ['/overview', '/overview', true],
    ['/school', '/school/12/edit', true],
    ['/candidate/resit', '/candidate/resit?page=2', true],
    // Contained anywhere, not only as a prefix: that is what the spec says.
    ['/score', '/admin/score/entry', true],
    ['/courses', '/courses-archive', true],
    ['/overview', '/', false],
    ['/school', '/schools', true],
    ['/candidate/resit', '/candidate/candidate-registered', false],
    ['/payments', '/Payments', false],
    ['/notifications', '/notification', false],
  ])('%s is active on %s: %s', (entryPath, currentPath, active) => {
    expect(isEntryActive(entryPath, currentPath)).toBe(active);
  });

  it('marks only Dashboard active on /overview among the admin entries', () => {
    expect(SIDEBAR.filter((entry) => isEntryActive(entry.path, '/overview')).map((e) => e.label)).toEqual([
      'Dashboard',
    ]);
  });
});

describe('printable documents (spec section 2)', () => {
  it('has all 22 endings of the spec, in order, each once', () => {
    expect(PRINT_DOCUMENT_ENDINGS).toHaveLength(22);
    expect([...PRINT_DOCUMENT_ENDINGS]).toEqual(SPEC_PRINT_ENDINGS);
    expect(new Set(PRINT_DOCUMENT_ENDINGS).size).toBe(22);
    // Each has a title in words, none of them the data name with its hyphens.
    expect(Object.keys(PRINT_DOCUMENT_TITLES).sort()).toEqual([...PRINT_DOCUMENT_ENDINGS].sort());
    for (const ending of PRINT_DOCUMENT_ENDINGS) {
      expect(PRINT_DOCUMENT_TITLES[ending], ending).toMatch(/^[A-Z][^-]*$/);
    }
  });

  it.each(SPEC_PRINT_ENDINGS)('/print-document/%s is shown without the shell', (ending) => {
    expect(isShellLess(`${PRINT_DOCUMENT_PREFIX}${ending}`)).toBe(true);
  });

  it('shows /login and /auth-confirm-code without the shell, and the print index and the rest with it', () => {
    expect(isShellLess('/login')).toBe(true);
    expect(isShellLess('/auth-confirm-code')).toBe(true);
    // The password pages beside /login: whoever opens them is not signed in.
    expect(isShellLess('/reset-password')).toBe(true);
    expect(isShellLess('/forgot-password')).toBe(true);
    expect(isShellLess('/print-document')).toBe(false);
    // The public check of a printed code, typed by hand or opened from a QR code.
    expect(isShellLess('/verify')).toBe(true);
    expect(isShellLess('/statecharts')).toBe(true);
    expect(isShellLess('/verify/ABCD-EFGH')).toBe(true);
    expect(isShellLess('/verifying')).toBe(false);
    for (const entry of SIDEBAR) expect(isShellLess(entry.path), entry.path).toBe(false);
  });
});

describe('the notification badge (spec sections 2 and 9)', () => {
  it.each([
    [0, ''],
    [-1, ''],
    [1, '1'],
    [42, '42'],
    [99, '99'],
    [100, '99+'],
    [101, '99+'],
    [12_345, '99+'],
  ])('%i unread reads %j', (unread, text) => {
    expect(badgeText(unread)).toBe(text);
  });

  it('caps from 100', () => {
    expect(BADGE_CAP).toBe(100);
  });
});
