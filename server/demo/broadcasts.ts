import type { NotificationKind } from '../../contract/notifications';
import { BROADCAST_FILE_KIND } from '../broadcasts/service';
import {
  broadcastAttachments,
  broadcastMails,
  broadcastRecipients,
  broadcasts,
  files,
  notifications,
  users,
} from '../db/schema';
import { newKey } from '../storage/storage';
import type { DemoAccounts, DemoSchoolCode } from './accounts';
import { daysBefore, type DemoSeed } from './context';
import { and, eq, inArray } from 'drizzle-orm';

/**
 * The board's broadcasts (issue 26): three sent over the last weeks, one with a PDF attached; read and
 * acknowledged by some schools, not by others, so "Your broadcast" has counts to show and a school
 * something to acknowledge. Their mail is recorded as sent (the demo mails nobody at start).
 */

/** A one-page PDF with a line of text: what the attachment check takes as a PDF, readable in a viewer. */
function onePagePdf(line: string): Uint8Array {
  const text = line.replace(/[()\\]/g, '');
  const stream = `BT /F1 18 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(body);
}

interface DemoBroadcast {
  title: string;
  body: string;
  audience: { kind: 'all' | 'schools' | 'state'; description: string; criteria: unknown };
  schools: 'all' | DemoSchoolCode[];
  ack: boolean;
  daysAgo: number;
  attachment?: { name: string; line: string };
  /** What each school with admins did: read, acknowledged, or nothing. */
  did: Partial<Record<DemoSchoolCode, 'read' | 'acknowledged'>>;
}

const BROADCASTS: DemoBroadcast[] = [
  {
    title: 'Timetable for the coming diet',
    body: 'The timetable of the coming diet is attached.\n\nPlease share it with your candidates and confirm that your school has received it.',
    audience: { kind: 'all', description: 'All schools', criteria: { kind: 'all' } },
    schools: 'all',
    ack: true,
    daysAgo: 12,
    attachment: { name: 'Timetable.pdf', line: 'Examination timetable' },
    did: { 'SHT-IB': 'acknowledged', 'CHT-CA': 'read' },
  },
  {
    title: 'Passport photographs for indexing',
    body: 'Photographs must be recent, in colour, on a white background, and show the whole face.',
    audience: { kind: 'schools', description: '2 chosen schools', criteria: { kind: 'schools' } },
    schools: ['SHT-IB', 'CHT-CA'],
    ack: true,
    daysAgo: 5,
    did: { 'SHT-IB': 'acknowledged' },
  },
  {
    title: 'Examination centre in Ibadan',
    body: 'Candidates from Oyo sit at the usual centre in Ibadan. Arrive an hour before the first paper.',
    audience: { kind: 'state', description: 'Schools in Oyo', criteria: { kind: 'state', state: 'Oyo' } },
    schools: ['SHT-IB'],
    ack: false,
    daysAgo: 2,
    did: { 'SHT-IB': 'read' },
  },
];

export async function seedBroadcasts(demo: DemoSeed, accounts: DemoAccounts): Promise<void> {
  const { tx, now, storage } = demo;
  for (const item of BROADCASTS) {
    const sentAt = daysBefore(now, item.daysAgo);
    const [row] = await tx
      .insert(broadcasts)
      .values({
        title: item.title,
        body: item.body,
        audience: item.audience,
        requiresAcknowledgement: item.ack,
        createdBy: accounts.adminId,
        createdAt: sentAt,
      })
      .returning({ id: broadcasts.id });
    if (item.attachment) {
      const bytes = onePagePdf(item.attachment.line);
      const key = newKey('broadcasts', 'pdf');
      await storage.put(key, bytes, 'application/pdf');
      demo.storedKeys.push(key);
      const [file] = await tx
        .insert(files)
        .values({
          key,
          kind: BROADCAST_FILE_KIND,
          ownerId: accounts.adminId,
          contentType: 'application/pdf',
          size: bytes.byteLength,
        })
        .returning({ id: files.id });
      await tx
        .insert(broadcastAttachments)
        .values({ broadcastId: row.id, fileId: file.id, name: item.attachment.name, position: 0 });
    }
    const schools =
      item.schools === 'all'
        ? accounts.schools
        : accounts.schools.filter((school) => (item.schools as DemoSchoolCode[]).includes(school.code));
    await tx.insert(broadcastRecipients).values(
      schools.map((school) => {
        const did = item.did[school.code];
        const by = accounts.schoolAdminOf[school.code] ?? null;
        const readAt = did ? new Date(sentAt.getTime() + 3 * 3600_000) : null;
        const acknowledgedAt = did === 'acknowledged' ? new Date(sentAt.getTime() + 4 * 3600_000) : null;
        return {
          broadcastId: row.id,
          trainingSchoolId: school.id,
          readAt,
          readBy: readAt ? by : null,
          acknowledgedAt,
          acknowledgedBy: acknowledgedAt ? by : null,
        };
      }),
    );
    // The mail of each school's admins, recorded as sent when the broadcast was.
    const admins = await tx
      .select({ id: users.id, school: users.trainingSchoolId })
      .from(users)
      .where(
        and(
          eq(users.role, 'school_admin'),
          inArray(
            users.trainingSchoolId,
            schools.map((school) => school.id),
          ),
        ),
      );
    if (admins.length) {
      await tx.insert(broadcastMails).values(
        admins.map((admin) => ({
          broadcastId: row.id,
          trainingSchoolId: admin.school!,
          userId: admin.id,
          round: 0,
          createdAt: sentAt,
          sentAt,
        })),
      );
    }
    for (const school of schools) {
      if (item.did[school.code] !== 'acknowledged') continue;
      await tx.insert(notifications).values({
        kind: 'broadcast.acknowledged' satisfies NotificationKind,
        title: `${school.name} acknowledged a broadcast`,
        body: `${school.name} (${school.code}) acknowledged "${item.title}".`,
        trainingSchoolId: school.id,
        createdBy: accounts.schoolAdminOf[school.code] ?? null,
        createdAt: new Date(sentAt.getTime() + 4 * 3600_000),
        readAt: item.daysAgo > 7 ? new Date(sentAt.getTime() + 24 * 3600_000) : null,
        readBy: item.daysAgo > 7 ? accounts.adminId : null,
        subject: String(row.id),
      });
    }
  }
}
