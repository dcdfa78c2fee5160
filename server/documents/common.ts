import type { DocumentHeading } from '../../contract/documents';
import { DOCUMENT_PARAM_LABELS as L } from '../../contract/documents';
import type { DocumentScope } from './builder';

/** The head of a paper: the diet, school, course header and paper it is about, each that was chosen. */
export function headingOf(scope: DocumentScope, ...more: DocumentHeading[]): DocumentHeading[] {
  const heading: DocumentHeading[] = [];
  if (scope.diet) heading.push({ label: L.diet, value: `${scope.diet.name} (${scope.diet.code})` });
  if (scope.school) heading.push({ label: L.school, value: `${scope.school.name} (${scope.school.code})` });
  if (scope.courseHeader) {
    heading.push({ label: L.course_header, value: `${scope.courseHeader.code} ${scope.courseHeader.name}` });
  }
  if (scope.paper) heading.push({ label: L.paper, value: scope.paper.name });
  return [...heading, ...more];
}

/** SURNAME first, in capitals, then the other names as written: how the board's papers name people. */
export function surnameFirst(person: { last_name: string; first_name: string; middle_name?: string | null }) {
  const others = [person.first_name, person.middle_name].filter(Boolean).join(' ');
  return `${person.last_name.toLocaleUpperCase('en-NG')}, ${others}`;
}
