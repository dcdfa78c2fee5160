import { users, trainingSchools } from '../db/schema';
import type { Database } from '../db/client';

/** The demo's schools and its three sign-ins: what every test builds its own rows on. */
export const DEMO_PASSWORD = 'demo-password';

export const DEMO_SIGN_INS = [
  { email: 'admin@example.org', role: 'admin', label: 'board admin' },
  { email: 'school1@example.org', role: 'school_admin', label: 'school admin, SHT-IB' },
  { email: 'school2@example.org', role: 'school_admin', label: 'school admin, CHT-CA' },
] as const;

export const DEMO_SCHOOLS = [
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
] as const;

export type DemoSchoolCode = (typeof DEMO_SCHOOLS)[number]['code'];

export interface DemoAccounts {
  adminId: number;
  schools: { id: number; code: DemoSchoolCode; name: string }[];
  /** The school admin of each school that has one (SHT-IB and CHT-CA). */
  schoolAdminOf: Partial<Record<DemoSchoolCode, number>>;
}

export async function seedAccounts(tx: Database, passwordHash: string): Promise<DemoAccounts> {
  const schools = await tx
    .insert(trainingSchools)
    .values(DEMO_SCHOOLS.map((school) => ({ ...school, country: 'NG', contactEmail: null })))
    .returning({ id: trainingSchools.id, code: trainingSchools.code, name: trainingSchools.name });
  const schoolId = (code: DemoSchoolCode) => schools.find((s) => s.code === code)!.id;
  const [admin, school1, school2] = await tx
    .insert(users)
    .values([
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
    ])
    .returning({ id: users.id });
  return {
    adminId: admin.id,
    schools: schools.map((s) => ({ ...s, code: s.code as DemoSchoolCode })),
    schoolAdminOf: { 'SHT-IB': school1.id, 'CHT-CA': school2.id },
  };
}
