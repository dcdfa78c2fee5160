import { staffInvitations, users } from '../db/schema';
import { hashPassword, randomSecret } from '../secrets';
import type { DemoAccounts } from './accounts';
import type { DemoSeed } from './context';

/** The demo's invited board admin: added, mailed, and not yet joined (issue 26). */
export const DEMO_INVITED_ADMIN = { name: 'Chidinma Eze', email: 'invited.admin@example.org' } as const;

/**
 * A second board admin still invited (status 'invited' on the Board staff page); their invitation is
 * recorded as mailed, so the outbox does not mail a demo address at start. The markers are
 * server/demo/scores.ts's, as before.
 */
export async function seedStaff({ tx, now }: DemoSeed, accounts: DemoAccounts): Promise<void> {
  const dayBefore = new Date(now.getTime() - 24 * 3600_000);
  const [invited] = await tx
    .insert(users)
    .values({
      ...DEMO_INVITED_ADMIN,
      role: 'admin',
      passwordHash: await hashPassword(randomSecret(32)),
      invitedAt: dayBefore,
    })
    .returning({ id: users.id });
  await tx.insert(staffInvitations).values({
    userId: invited.id,
    invitedBy: accounts.adminId,
    createdAt: dayBefore,
    mailedAt: dayBefore,
  });
}
