import { eq } from 'drizzle-orm';
import type { Actor } from '../audit';
import { issueToken, revokeToken } from '../auth/tokens';
import { accessTokens, users } from '../db/schema';
import { startImpersonation, switchBack } from '../impersonation/service';
import { updateProfile } from '../profile/service';
import type { DemoAccounts } from './accounts';
import type { DemoSeed } from './context';
import { forgetCallers } from '../auth/callerCache';

/** The phone number SHT-IB's admin had on file before the board corrected it while signed in as them. */
const OLD_PHONE = '+234 803 000 0200';
const REASON = 'The school cannot receive sign-in codes: checking the phone number on their account';
const TTL_MINUTES = 60;
/** What the demo's requests are marked with in the log, as a real request's id and address would be. */
const DEMO_IP = '127.0.0.1';

/**
 * An impersonated session in the audit trail (issue 27), through the real services: the board admin
 * signs in as SHT-IB's school admin (audited with the reason), corrects the phone number on the
 * school admin's account as them (a profile update whose entry names the admin as impersonator, with
 * the number before and after), and switches back. The account ends as the other demo data expects
 * it; the tokens the session used are revoked, as a finished session's are.
 */
export async function seedImpersonation(
  { tx, storage, log }: DemoSeed,
  accounts: DemoAccounts,
): Promise<void> {
  const schoolAdminId = accounts.schoolAdminOf['SHT-IB'];
  if (schoolAdminId === undefined) return;
  const [schoolAdmin] = await tx.select().from(users).where(eq(users.id, schoolAdminId));
  const correctPhone = schoolAdmin.phoneNumber;
  await tx.update(users).set({ phoneNumber: OLD_PHONE }).where(eq(users.id, schoolAdminId));

  const admin = await issueToken(tx, accounts.adminId, TTL_MINUTES);
  const adminActor: Actor = {
    userId: accounts.adminId,
    impersonatorId: null,
    ip: DEMO_IP,
    requestId: 'demo-impersonation-start',
  };
  const started = await startImpersonation(
    tx,
    adminActor,
    { tokenId: admin.tokenId, tokenTtlMinutes: TTL_MINUTES },
    { user_id: schoolAdminId, reason: REASON },
  );
  const schoolTokenId = Number(started.token.split('|')[0]);
  const asSchool = (requestId: string): Actor => ({
    userId: schoolAdminId,
    impersonatorId: accounts.adminId,
    ip: DEMO_IP,
    requestId,
  });

  await updateProfile(
    { db: tx, storage, log },
    asSchool('demo-impersonation-profile'),
    {
      name: schoolAdmin.name,
      email: schoolAdmin.email,
      phone_number: correctPhone ?? undefined,
    } as Parameters<typeof updateProfile>[2],
    undefined,
  );

  const back = await switchBack(
    tx,
    asSchool('demo-impersonation-end'),
    { tokenId: schoolTokenId, tokenTtlMinutes: TTL_MINUTES },
    { token: started.switchBack },
  );
  if (back.token) await revokeToken(tx, Number(back.token.split('|')[0]));
  forgetCallers();
  await tx.update(accessTokens).set({ revokedAt: new Date() }).where(eq(accessTokens.id, admin.tokenId));
}
