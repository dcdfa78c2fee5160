/** The nationality list (spec sections 3 and 7): every ISO 3166-1 entry with its code, Nigeria first. */
export interface Nationality {
  /** ISO 3166-1 alpha-2, e.g. 'NG'. */
  code: string;
  name: string;
}
