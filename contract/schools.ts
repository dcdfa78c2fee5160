/** Training schools as the board's lists show them (spec section 3: a school row has a status). */

export const SCHOOL_STATUSES = ['active', 'suspended'] as const;
export type SchoolStatus = (typeof SCHOOL_STATUSES)[number];

/** A school admin of a school, as the list shows them: enough to choose whom to sign in as. */
export interface SchoolAdminSummary {
  id: number;
  name: string;
  email: string;
  active: boolean;
}

export interface SchoolRow {
  id: number;
  code: string;
  name: string;
  state: string;
  country: string;
  status: SchoolStatus;
  admins: SchoolAdminSummary[];
}

export const SCHOOL_PATHS = {
  /** `?search=&status=&page=&per_page=`: a Page<SchoolRow>, ordered by name. */
  list: '/api/admin/training-schools',
} as const;

/** The longest search text the list takes. */
export const SCHOOL_SEARCH_MAX = 100;

export const SCHOOL_MESSAGES = {
  statusInvalid: 'Choose active or suspended',
  searchTooLong: 'This is too long',
} as const;
