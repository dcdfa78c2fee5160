import type { Database } from '../db/client';
import { courseHeaders } from '../db/schema';

export const DEMO_COURSE_HEADERS = [
  { code: 'A1', title: 'Community Health Extension Worker (CHEW)' },
  { code: 'A2', title: 'Junior Community Health Extension Worker (JCHEW)' },
  { code: 'A3', title: 'Environmental Health Assistant' },
  { code: 'A4', title: 'Food Hygiene and Nutrition Technician' },
  { code: 'A5', title: 'Health Assistant (Post-Basic Bridging Course)' },
  { code: 'B1', title: 'Medical Laboratory Technician' },
  { code: 'B2', title: 'Pharmacy Technician' },
  { code: 'B3', title: 'Health Information Management Technician' },
  { code: 'B4', title: 'Dental Surgery Technician' },
  { code: 'B5', title: 'Higher Diploma in Community Health (after the ND)' },
] as const;

export interface DemoCourseHeader {
  id: number;
  code: string;
}

/** Every course header open for indexing and registration, as the browser specs expect them. */
export async function seedCourseHeaders(tx: Database): Promise<DemoCourseHeader[]> {
  return tx
    .insert(courseHeaders)
    .values([...DEMO_COURSE_HEADERS])
    .returning({ id: courseHeaders.id, code: courseHeaders.code });
}
