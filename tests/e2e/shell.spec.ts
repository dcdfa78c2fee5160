import { expect, test, type Page } from '@playwright/test';
import { apiSignIn, pngBytes, signIn, DEMO_PASSWORD } from './support';

async function openProfileMenu(page: Page) {
  await page.getByRole('button', { name: /profile menu/ }).click();
}

test('an admin edits the profile with a photo; the header shows the new name and photo at once', async ({
  page,
}) => {
  await signIn(page, 'admin@example.org');
  await openProfileMenu(page);
  await page.getByRole('menuitem', { name: 'Your profile' }).click();
  const view = page.getByRole('dialog', { name: 'Your profile' });
  await expect(view.getByText('admin@example.org')).toBeVisible();
  await view.getByRole('button', { name: 'Edit profile' }).click();

  const edit = page.getByRole('dialog', { name: 'Edit profile' });
  await expect(edit.getByLabel('Gender')).toBeVisible();
  await edit.getByLabel('Full name').fill('Adaeze Okafor-Bello');
  await edit
    .getByLabel('Change Image')
    .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: pngBytes() });
  await edit.getByRole('button', { name: 'Update info' }).click();

  await expect(page.getByRole('alert').filter({ hasText: 'Your profile has been updated.' })).toBeVisible();
  await expect(edit).toBeHidden();
  const menuButton = page.getByRole('button', { name: /profile menu/ });
  await expect(menuButton).toContainText('Adaeze Okafor-Bello');
  const photo = menuButton.locator('img');
  await expect(photo).toHaveAttribute('data-photo', 'own');
  await expect(photo).toHaveAttribute('src', /^\/files\//);
  // The photo really loads (the token cookie authorises the image request).
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(8);
});

test('a refused profile update keeps the dialog and what was typed, and says why', async ({ page }) => {
  await signIn(page, 'school1@example.org');
  await openProfileMenu(page);
  await page.getByRole('menuitem', { name: 'Your profile' }).click();
  await page.getByRole('button', { name: 'Edit profile' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit profile' });
  await expect(edit.getByLabel('Gender')).toHaveCount(0);
  await edit.getByLabel('Email address').fill('admin@example.org');
  await edit.getByRole('button', { name: 'Update info' }).click();
  // The modal dialog says it itself (it hides the toast area from screen readers), and the toast shows too.
  await expect(edit.getByRole('alert')).toHaveText('This email address is already used by another account');
  await expect(page.locator('.Toastify').getByText('already used by another account')).toBeVisible();
  await expect(edit.getByLabel('Email address')).toHaveValue('admin@example.org');
  await expect(edit.getByRole('button', { name: 'Update info' })).toBeEnabled();
});

test('a school admin changes the password and signs in with the new one', async ({ page }) => {
  await signIn(page, 'school2@example.org');
  await openProfileMenu(page);
  await page.getByRole('menuitem', { name: 'Change password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change password' });
  await dialog.getByLabel('Old password').fill('not-my-password');
  await dialog.getByLabel('New password').fill('a-new-password-1');
  await dialog.getByLabel('Confirm password').fill('a-new-password-1');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('old password incorrect');
  await expect(page.locator('.Toastify').getByText('old password incorrect')).toBeVisible();

  await dialog.getByLabel('Old password').fill(DEMO_PASSWORD);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Password changed successfully' })).toBeVisible();
  await expect(dialog).toBeHidden();

  await openProfileMenu(page);
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, 'school2@example.org', '/login', 'a-new-password-1');
  await expect(page.getByText('Welcome, Ekaette Bassey.')).toBeVisible();
});

test('an admin signs in as a school admin with a reason, sees whose portal it is, and switches back', async ({
  page,
}) => {
  await signIn(page, 'admin@example.org');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Training Schools' })
    .click();
  await page.getByRole('searchbox', { name: 'Search by code or name' }).fill('Ibadan');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('button', { name: 'Log in as Babatunde Adeyemi' }).click();
  const dialog = page.getByRole('dialog', { name: 'Log in as Babatunde Adeyemi' });
  await dialog.getByLabel('Reason').fill('The school asked for help with its registrations.');
  await dialog.getByRole('button', { name: 'Log in as this user' }).click();

  await expect(
    page.getByRole('status').filter({ hasText: 'You are signed in as Babatunde Adeyemi' }),
  ).toBeVisible();
  await expect(page.getByRole('status')).toContainText('on behalf of');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveCount(5);

  await openProfileMenu(page);
  await page.getByRole('menuitem', { name: 'Switch To Admin' }).click();
  await expect(page.getByText('Welcome, Adaeze')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveCount(14);
  await openProfileMenu(page);
  await expect(page.getByRole('menuitem', { name: 'Switch To Admin' })).toHaveCount(0);
});

test('with 100 unread notifications the bell and the sidebar read 99+, and reading them clears it', async ({
  page,
  request,
}) => {
  const school = await apiSignIn(request, 'school1@example.org');
  for (let i = 1; i <= 100; i++) {
    const response = await request.post('/api/training-school-admin/message-board', {
      headers: { Authorization: `Bearer ${school}` },
      data: { subject: `Question ${i}`, message: `Message number ${i} from the school.` },
    });
    expect(response.status()).toBe(200);
  }
  await signIn(page, 'admin@example.org');
  await expect(page.getByTestId('bell-badge')).toHaveText('99+');
  await expect(page.getByTestId('sidebar-badge')).toHaveText('99+');

  await page.getByRole('link', { name: /Notifications, 99\+ unread/ }).click();
  await expect(page.getByRole('heading', { name: 'Notifications' })).toBeVisible();
  await expect(page.getByText('Question 100')).toBeVisible();
  await page.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(page.getByText('No unread notifications.')).toBeVisible();
  await expect(page.getByTestId('bell-badge')).toHaveCount(0);
  await page.getByRole('tab', { name: 'Read', exact: true }).click();
  await expect(page.getByText('Question 100')).toBeVisible();
});
