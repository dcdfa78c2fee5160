import { expect, test } from '@playwright/test';
import { signIn } from './support';

/**
 * Messages both ways (issue 26): a school admin writes to the board, a board admin opens the
 * notification, follows its link to the conversation and answers, and the school admin reads the answer
 * among their messages (linked from the Dashboard), as text.
 */
test('a school admin writes, the board answers from Notifications, the school reads the answer', async ({
  browser,
}) => {
  const subject = `Exam hall ${Date.now()}`;
  const school = await (await browser.newContext()).newPage();
  await signIn(school, 'school1@example.org');
  await school.getByRole('button', { name: 'Message the board' }).click();
  const write = school.getByRole('dialog', { name: 'Message the board' });
  await write.getByLabel('Subject').fill(subject);
  await write.getByLabel('Message').fill('Which hall do our candidates sit in?');
  await write.getByRole('button', { name: 'Send' }).click();
  await expect(school.getByText('Your message has been sent to the board.')).toBeVisible();

  const board = await (await browser.newContext()).newPage();
  await signIn(board, 'admin@example.org');
  await board.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Notifications' }).click();
  const note = board.getByRole('listitem').filter({ hasText: subject });
  await expect(note).toBeVisible();
  await note.getByRole('link', { name: 'Open the conversation' }).click();
  await expect(board.getByRole('heading', { name: subject })).toBeVisible();
  await expect(board.getByText('Which hall do our candidates sit in?')).toBeVisible();
  await board.getByRole('button', { name: 'Answer' }).click();
  const answer = board.getByRole('dialog', { name: `Answer: ${subject}` });
  await answer.getByLabel('Your message').fill('Hall B, <b>as before</b>.');
  await answer.getByRole('button', { name: 'Send' }).click();
  await expect(board.getByText('Your answer has been sent to the school.')).toBeVisible();
  await expect(board.getByText('Hall B, <b>as before</b>.')).toBeVisible();
  // Answered, it is no longer unread.
  await board.getByRole('link', { name: 'Back to Notifications' }).click();
  await expect(board.getByRole('tab', { name: 'Unread' })).toHaveAttribute('aria-selected', 'true');
  await expect(board.getByRole('listitem').filter({ hasText: subject })).toHaveCount(0);

  await school.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  await school.getByRole('link', { name: 'Your messages with the board' }).click();
  await expect(school.getByRole('heading', { name: 'Messages with the board' })).toBeVisible();
  const row = school.getByRole('listitem').filter({ hasText: subject });
  await expect(row.getByText('1 new answer')).toBeVisible();
  await row.getByRole('link', { name: subject }).click();
  await expect(school.getByRole('heading', { name: subject })).toBeVisible();
  // Shown as text, markup and all.
  await expect(school.getByText('Hall B, <b>as before</b>.')).toBeVisible();
  await school.getByRole('button', { name: 'Reply' }).click();
  const reply = school.getByRole('dialog', { name: `Reply: ${subject}` });
  await reply.getByLabel('Your message').fill('Thank you.');
  await reply.getByRole('button', { name: 'Send' }).click();
  await expect(school.getByText('Your reply has been sent to the board.')).toBeVisible();
  await expect(school.getByRole('list', { name: 'Messages' }).getByRole('listitem')).toHaveCount(3);
  await school.getByRole('link', { name: 'Back to your messages' }).click();
  await expect(
    school
      .getByRole('listitem')
      .filter({ hasText: subject })
      .getByText(/new answer/),
  ).toHaveCount(0);
});
