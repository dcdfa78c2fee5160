import { CANDIDATES_REGISTERED_KIND } from '../../contract/candidates';
import { notifications } from '../db/schema';
import type { DemoAccounts, DemoSchoolCode } from './accounts';
import { areaRandom, daysBefore, type DemoSeed } from './context';

/**
 * What the schools told the board: messages from the two schools with admins, and their registrations
 * (grouped per school as server/routes/registration.ts groups them, in its words). The older ones are
 * read, the newest few are not, so the bell has a count.
 */

const MESSAGES = [
  ['Photo of a candidate', 'One of our candidates uploaded a blurred photo. May we send a new one?'],
  ['Change of name after marriage', 'A candidate has married since indexing. Which document should we send?'],
  ['Exam centre for the next sitting', 'Please confirm our candidates will sit at the usual centre.'],
  ['Certificate not yet issued', 'Two candidates await their ND certificates from the polytechnic.'],
  ['Registration deadline', 'Is there a late registration window for this sitting?'],
  ['Wrong course header', 'A candidate was indexed under A2 instead of A1. How can it be corrected?'],
  ['Resit papers', 'Can a candidate resit the Practical only, or must all papers be taken again?'],
  ['Fees receipt', 'We paid the indexing fees last week but have not received a receipt.'],
] as const;

/** Unread: the newest this many. */
const UNREAD = 5;

export async function seedNotifications(demo: DemoSeed, accounts: DemoAccounts): Promise<void> {
  const { tx, now } = demo;
  const rng = areaRandom('notifications');
  const schools = accounts.schools.filter((school) => accounts.schoolAdminOf[school.code] !== undefined);
  const adminOf = (code: DemoSchoolCode) => accounts.schoolAdminOf[code]!;

  const rows = [
    ...MESSAGES.map(([title, body]) => {
      const school = rng.pick(schools);
      return {
        kind: 'school.message',
        title,
        body,
        trainingSchoolId: school.id,
        createdBy: adminOf(school.code),
        createdAt: daysBefore(now, rng.int(0, 90) + 0.1 + rng.next() * 0.9),
        data: null,
      };
    }),
    ...schools.flatMap((school) =>
      Array.from({ length: 3 }, () => {
        const total = rng.int(2, 14);
        return {
          kind: CANDIDATES_REGISTERED_KIND,
          title: `Candidates registered by ${school.name}`,
          body: `${school.name} (${school.code}) has registered ${total} candidates.`,
          trainingSchoolId: school.id,
          createdBy: adminOf(school.code),
          createdAt: daysBefore(now, rng.int(0, 90) + 0.1 + rng.next() * 0.9),
          data: { count: total },
        };
      }),
    ),
  ].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());

  await tx.insert(notifications).values(
    rows.map((row, i) => {
      const read = i < rows.length - UNREAD;
      return {
        ...row,
        readAt: read
          ? new Date(Math.min(now.getTime(), row.createdAt.getTime() + rng.int(1, 48) * 3_600_000))
          : null,
        readBy: read ? accounts.adminId : null,
      };
    }),
  );
}
