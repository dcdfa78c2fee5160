import { desc, eq, isNotNull, isNull } from 'drizzle-orm';
import { CANDIDATES_REGISTERED_KIND } from '../../contract/candidates';
import { formatNaira } from '../../contract/payments';
import {
  candidates,
  conversationMessages,
  conversations,
  notifications,
  payments,
  resits,
  trainingSchools,
} from '../db/schema';
import type { DemoAccounts, DemoSchoolCode } from './accounts';
import { areaRandom, daysBefore, type DemoSeed } from './context';

/**
 * What the schools told the board, one of each source (issue 26): messages from the two schools with
 * admins, each a conversation (the board answered some, and a school replied to one), their registrations
 * (grouped per school as server/candidates/registration.ts groups them, in its words), payments received
 * and resit entries (from the demo's own payments and resits, so their links lead somewhere). The older
 * ones are read, the newest few are not, so the bell has a count.
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
        subject: null as string | null,
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
          subject: null as string | null,
        };
      }),
    ),
    ...(await receivedPayments(demo)),
    ...(await addedResits(demo)),
  ].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());

  // Each message is a conversation; its notification leads to it.
  for (const row of rows) {
    if (row.kind !== 'school.message') continue;
    const [conversation] = await tx
      .insert(conversations)
      .values({
        trainingSchoolId: row.trainingSchoolId,
        subject: row.title,
        createdBy: row.createdBy,
        createdAt: row.createdAt,
        lastMessageAt: row.createdAt,
      })
      .returning({ id: conversations.id });
    await tx.insert(conversationMessages).values({
      conversationId: conversation.id,
      fromBoard: false,
      authorId: row.createdBy,
      body: row.body,
      createdAt: row.createdAt,
    });
    row.subject = String(conversation.id);
  }

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
  await seedAnswers(demo, accounts, rows);
}

/**
 * The board answered the three oldest messages (the day after), and a school replied to the oldest one,
 * the reply unread; the school has read the answer to the oldest and not the others yet.
 */
async function seedAnswers(
  { tx, now }: DemoSeed,
  accounts: DemoAccounts,
  rows: {
    kind: string;
    subject: string | null;
    title: string;
    trainingSchoolId: number;
    createdBy: number | null;
    createdAt: Date;
  }[],
) {
  const messages = rows.filter((row) => row.kind === 'school.message').slice(0, 3);
  for (const [i, row] of messages.entries()) {
    const id = Number(row.subject);
    const answeredAt = new Date(Math.min(now.getTime(), row.createdAt.getTime() + 86_400_000));
    await tx.insert(conversationMessages).values({
      conversationId: id,
      fromBoard: true,
      authorId: accounts.adminId,
      body: ANSWERS[i % ANSWERS.length],
      createdAt: answeredAt,
    });
    await tx
      .update(conversations)
      .set({ lastMessageAt: answeredAt, lastFromBoard: true, schoolReadAt: i === 0 ? answeredAt : null })
      .where(eq(conversations.id, id));
    if (i > 0) continue;
    const repliedAt = new Date(Math.min(now.getTime(), answeredAt.getTime() + 3_600_000));
    const reply = 'Thank you. We will send it this week.';
    await tx.insert(conversationMessages).values({
      conversationId: id,
      fromBoard: false,
      authorId: row.createdBy,
      body: reply,
      createdAt: repliedAt,
    });
    await tx
      .update(conversations)
      .set({ lastMessageAt: repliedAt, lastFromBoard: false, schoolReadAt: repliedAt })
      .where(eq(conversations.id, id));
    await tx.insert(notifications).values({
      kind: 'school.message',
      title: `Reply: ${row.title}`,
      body: reply,
      trainingSchoolId: row.trainingSchoolId,
      createdBy: row.createdBy,
      createdAt: repliedAt,
      subject: String(id),
    });
  }
}

const ANSWERS = [
  'Yes. Upload the new one on the candidate record; the board verifies it again.',
  'Send the marriage certificate and a sworn affidavit with the candidate record.',
  'Yes, the usual centre. The timetable follows in a broadcast.',
];

/** The newest payments the demo credited, as the board was told of them. */
async function receivedPayments({ tx }: DemoSeed) {
  const paid = await tx
    .select({ payment: payments, school: trainingSchools })
    .from(payments)
    .innerJoin(trainingSchools, eq(trainingSchools.id, payments.trainingSchoolId))
    .where(isNotNull(payments.paidAt))
    .orderBy(desc(payments.paidAt))
    .limit(3);
  return paid.map(({ payment, school }) => ({
    kind: 'payment.received',
    title: `Payment received from ${school.name}`,
    body: `${school.name} (${school.code}) has paid ${formatNaira(payment.amountKobo)}: receipt ${payment.receiptNumber}, reference ${payment.reference}.`,
    trainingSchoolId: school.id,
    createdBy: payment.initiatedBy,
    createdAt: payment.paidAt!,
    data: null,
    subject: payment.reference as string | null,
  }));
}

/** The newest resit entries listed, as the board was told of them. */
async function addedResits({ tx }: DemoSeed) {
  const added = await tx
    .select({ resit: resits, index: candidates.candidateIndex, school: trainingSchools })
    .from(resits)
    .innerJoin(candidates, eq(candidates.id, resits.candidateId))
    .innerJoin(trainingSchools, eq(trainingSchools.id, candidates.trainingSchoolId))
    .where(isNull(resits.removedAt))
    .orderBy(desc(resits.createdAt))
    .limit(3);
  return added.map(({ resit, index, school }) => ({
    kind: 'resit.added',
    title: `Resit added by ${school.name}`,
    body: `${school.name} (${school.code}) has entered ${index} for a resit: ${resit.papers.join(', ')}.`,
    trainingSchoolId: school.id,
    createdBy: resit.createdBy,
    createdAt: resit.createdAt,
    data: null,
    subject: index as string | null,
  }));
}
