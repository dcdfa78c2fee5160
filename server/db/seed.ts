import { count } from 'drizzle-orm';
import { hashPassword } from '../auth/secrets';
import type { Database } from './client';
import { courseHeaders, trainingSchools, users } from './schema';

/** The demo: made-up schools, course headers and three sign-ins, for trying the portal out. */
export const DEMO_PASSWORD = 'demo-password';

export const DEMO_SIGN_INS = [
  { email: 'admin@example.org', role: 'admin', label: 'board admin' },
  { email: 'school1@example.org', role: 'school_admin', label: 'school admin, SHT-IB' },
  { email: 'school2@example.org', role: 'school_admin', label: 'school admin, CHT-CA' },
] as const;

const DEMO_SCHOOLS = [
  { code: 'SHT-IB', name: 'School of Health Technology, Ibadan', state: 'Oyo', address: 'Agodi GRA, Ibadan' },
  {
    code: 'CHT-CA',
    name: 'College of Health Technology, Calabar',
    state: 'Cross River',
    address: 'Mary Slessor Avenue, Calabar',
  },
  { code: 'SHT-KN', name: 'School of Health Technology, Kano', state: 'Kano', address: 'Zaria Road, Kano' },
  {
    code: 'CHT-EN',
    name: 'College of Health Technology, Enugu',
    state: 'Enugu',
    address: 'Independence Layout, Enugu',
  },
  {
    code: 'SHT-JS',
    name: 'School of Health Technology, Jos',
    state: 'Plateau',
    address: 'Rayfield Road, Jos',
  },
  {
    code: 'CHS-IL',
    name: 'College of Health Sciences, Ilorin',
    state: 'Kwara',
    address: 'Unity Road, Ilorin',
  },
];

const DEMO_COURSE_HEADERS = [
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
];

export async function isEmpty(db: Database): Promise<boolean> {
  const [{ total }] = await db.select({ total: count() }).from(users);
  return total === 0;
}

export async function seedDemo(db: Database): Promise<void> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    const schools = await tx
      .insert(trainingSchools)
      .values(DEMO_SCHOOLS.map((school) => ({ ...school, country: 'NG', contactEmail: null })))
      .returning({ id: trainingSchools.id, code: trainingSchools.code });
    const schoolId = (code: string) => schools.find((s) => s.code === code)!.id;
    await tx.insert(courseHeaders).values(DEMO_COURSE_HEADERS);
    await tx.insert(users).values([
      {
        name: 'Adaeze Okafor',
        email: 'admin@example.org',
        phoneNumber: '+234 803 000 0001',
        gender: 'female',
        role: 'admin',
        operatorId: 'OP-0001',
        passwordHash,
      },
      {
        name: 'Babatunde Adeyemi',
        email: 'school1@example.org',
        phoneNumber: '+234 803 000 0002',
        gender: 'male',
        role: 'school_admin',
        operatorId: 'OP-0101',
        trainingSchoolId: schoolId('SHT-IB'),
        passwordHash,
      },
      {
        name: 'Ekaette Bassey',
        email: 'school2@example.org',
        phoneNumber: '+234 803 000 0003',
        gender: 'female',
        role: 'school_admin',
        operatorId: 'OP-0102',
        trainingSchoolId: schoolId('CHT-CA'),
        passwordHash,
      },
    ]);
  });
}
