import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_DATA_DIR } from '../../playwright.config';
import { AUTH_MESSAGES } from '../../contract/auth';
import { uniqueLetters } from './indexing';
import { signIn } from './support';

/**
 * Board staff (issue 26): the admin adds a board admin from the Board staff page (reached from Training
 * Schools); the invitee opens the mailed link, sets a password and signs in; the admin suspends them,
 * and they are told so when they next sign in.
 */

/** The link of the invitation mailed to this address, read from the mail files as the invitee would. */
async function readInvitationLink(email: string): Promise<string> {
  const dir = path.join(E2E_DATA_DIR, 'mail');
  let link: string | null = null;
  await expect
    .poll(
      () => {
        if (!fs.existsSync(dir)) return null;
        const newest = fs
          .readdirSync(dir)
          .filter((name) => name.endsWith(`-${email}.eml`))
          .sort()
          .pop();
        if (!newest) return null;
        // Quoted-printable may fold a long line and write '=' as '=3D'.
        const body = fs
          .readFileSync(path.join(dir, newest), 'utf8')
          .replace(/=\r?\n/g, '')
          .replace(/=3D/g, '=');
        link = /(http\S+\/reset-password#\S+)/.exec(body)?.[1] ?? null;
        return link;
      },
      { message: `an invitation mailed to ${email}` },
    )
    .not.toBeNull();
  return link!;
}

test('an admin invites a board admin, who sets a password from the mail and signs in, then is suspended', async ({
  page,
  browser,
}) => {
  const name = `Amaka ${uniqueLetters()}`;
  const email = `invitee.${Date.now()}@example.org`;
  const password = 'my own board password';

  await signIn(page, 'admin@example.org');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Training Schools' })
    .click();
  await page.getByRole('link', { name: 'Board staff' }).click();
  await expect(page.getByRole('heading', { name: 'Board staff' })).toBeVisible();
  // The demo's invited admin and its markers are listed.
  await expect(page.getByRole('row').filter({ hasText: 'invited.admin@example.org' })).toContainText(
    'Invited',
  );

  await page.getByRole('button', { name: 'Add a board admin' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a board admin' });
  await dialog.getByLabel('Full name').fill(name);
  await dialog.getByLabel('Email address').fill(email);
  await dialog.getByRole('button', { name: 'Send the invitation' }).click();
  await expect(dialog).toHaveCount(0);
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Invited');
  await expect(row).toContainText('Never');

  // The invitee, in a browser of their own, follows the mailed link.
  const link = new URL(await readInvitationLink(email));
  const inviteeContext = await browser.newContext();
  const invitee = await inviteeContext.newPage();
  await invitee.goto(link.pathname + link.hash);
  await expect(invitee.getByRole('heading', { name: 'Set your password' })).toBeVisible();
  await expect(invitee.getByLabel('Email address')).toHaveValue(email);
  await expect(invitee.getByLabel('Code from the email')).toHaveValue(/^\d{6}$/);
  await invitee.getByLabel('New password', { exact: true }).fill(password);
  await invitee.getByLabel(/Confirm/).fill(password);
  await invitee.getByRole('button', { name: 'Set my password' }).click();
  await expect(invitee.getByRole('heading', { name: 'Password set' })).toBeVisible();
  await signIn(invitee, email, '/login', password);
  await expect(invitee.getByRole('heading', { name: 'Dashboard' })).toBeVisible();

  // The admin sees them active and signed in, and suspends them.
  await page.reload();
  await expect(row).toContainText('Active');
  await expect(row).not.toContainText('Never');
  await row.getByRole('button', { name: `Suspend ${name}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Suspend a board admin' });
  await confirm.getByRole('button', { name: 'Suspend' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(row).toContainText('Suspended');
  await expect(row.getByRole('button', { name: `Reinstate ${name}` })).toBeVisible();

  // Their session has ended; signing in again, they are told why.
  await invitee.goto('/login');
  await expect(invitee.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await invitee.getByLabel('Email address').fill(email);
  await invitee.getByLabel('Password').fill(password);
  await invitee.getByRole('button', { name: 'Sign in' }).click();
  await expect(invitee.getByText(AUTH_MESSAGES.accountSuspended)).toBeVisible();
  await inviteeContext.close();
});
