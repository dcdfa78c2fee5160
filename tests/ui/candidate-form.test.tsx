// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { signedInAsAdmin, renderApp } from './app';

/**
 * The real candidate form, its candidateForm machine and upload, in the real App against a real portal
 * over HTTP; only the browser is jsdom. Signed in as the board admin through the API, as a returning
 * user whose token is in the cookie.
 */

beforeEach(signedInAsAdmin);

async function renderForm() {
  const actors = await renderApp('/candidate/index-a-candidate');
  await screen.findByLabelText('First name *', {}, { timeout: 10_000 });
  return actors;
}

const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
  0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00, 0x00, 0x00,
  0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0xf0, 0x1f, 0x00, 0x05, 0x00, 0x01, 0xff,
  0x89, 0x99, 0x3d, 0x1d, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
]);

async function fillRequired(user: UserEvent, firstName: string) {
  await user.selectOptions(screen.getByLabelText('Title'), 'Mr');
  await user.type(screen.getByLabelText('First name *'), firstName);
  await user.type(screen.getByLabelText('Last name *'), 'Okafor');
  // Typed as the board writes dates; the form sends 2001-03-09, the only form the API takes.
  await user.type(screen.getByLabelText('Date of birth *'), '09/03/2001');
  await user.selectOptions(screen.getByLabelText('Gender *'), 'male');
  await user.selectOptions(screen.getByLabelText('Marital status *'), 'S');
  await user.selectOptions(screen.getByLabelText('Nationality *'), 'NG');
  await user.selectOptions(screen.getByLabelText('Candidate school *'), 'SHT-IB');
  await user.selectOptions(screen.getByLabelText('Course header *'), 'A1');
  await user.selectOptions(screen.getByLabelText('Candidate category *'), 'fresh');
  await user.selectOptions(screen.getByLabelText('Certificate 1 *'), 'WASSCE');
  await user.type(screen.getByLabelText('Exam year 1 *'), '2019');
  await user.type(screen.getByLabelText('Exam number 1 *'), '4250654321');
  await user.selectOptions(screen.getByLabelText('Exam month 1 *'), 'June');
  await user.upload(
    screen.getByLabelText('Candidate profile photo *'),
    new File([PNG], 'emeka.png', { type: 'image/png' }),
  );
}

describe('the candidate index form', () => {
  it('shows the spec message beside each empty required field, and keeps what was typed', async () => {
    const user = userEvent.setup();
    const actors = await renderForm();
    await user.type(screen.getByLabelText('Last name *'), 'Okafor');
    await user.click(screen.getByRole('button', { name: 'Index candidate' }));
    const firstName = screen.getByLabelText('First name *');
    await waitFor(() => expect(firstName).toHaveAttribute('aria-invalid', 'true'));
    expect(firstName).toHaveAccessibleDescription(expect.stringContaining('First Name is required'));
    expect(screen.getByLabelText('Candidate profile photo *')).toHaveAccessibleDescription(
      expect.stringContaining('Candidate profile photo is required'),
    );
    expect(screen.getByLabelText('Last name *')).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Last name *')).toHaveValue('Okafor');
    actors.stopAll();
  });

  it.each(['31/02/2001', '9/3/01', '2001/03/09'])(
    "an impossible or malformed date of birth (%j) shows the spec's message, and keeps what was typed",
    async (typed) => {
      const user = userEvent.setup();
      const actors = await renderForm();
      const dateOfBirth = screen.getByLabelText('Date of birth *');
      await user.type(dateOfBirth, typed);
      await user.click(screen.getByRole('button', { name: 'Index candidate' }));
      await waitFor(() => expect(dateOfBirth).toHaveAttribute('aria-invalid', 'true'));
      expect(dateOfBirth).toHaveAccessibleDescription(
        expect.stringContaining('Enter validate date of birth (DD/MM/YYYY)'),
      );
      expect(dateOfBirth).not.toHaveAccessibleDescription(
        expect.stringContaining('Date of birth is required'),
      );
      expect(dateOfBirth).toHaveValue(typed);
      actors.stopAll();
    },
  );

  it('indexes a valid candidate with a photo, shows the board index number, and starts the next one empty', async () => {
    const user = userEvent.setup();
    const actors = await renderForm();
    await fillRequired(user, 'Emeka');
    await user.click(screen.getByRole('button', { name: 'Index candidate' }));
    const index = await screen.findByTestId('candidate-index', {}, { timeout: 10_000 });
    expect(index.textContent).toMatch(/^WHB\/\d{2}\/A1\/\d{6}$/);
    expect(screen.getByRole('status')).toHaveTextContent('Emeka Okafor has the index number');
    // The next candidate starts from an empty form.
    await user.click(screen.getByRole('button', { name: 'Index another candidate' }));
    expect(await screen.findByLabelText('First name *')).toHaveValue('');
    actors.stopAll();
  });

  it("maps the server's refusal back beside the field and keeps everything typed", async () => {
    const user = userEvent.setup();
    const actors = await renderForm();
    await fillRequired(user, 'Chidi');
    await user.click(screen.getByRole('button', { name: 'Index candidate' }));
    await screen.findByTestId('candidate-index', {}, { timeout: 10_000 });
    await user.click(screen.getByRole('button', { name: 'Index another candidate' }));
    // The same person, school and course header again.
    await fillRequired(user, 'Chidi');
    await user.click(screen.getByRole('button', { name: 'Index candidate' }));
    const firstName = screen.getByLabelText('First name *');
    await waitFor(
      () =>
        expect(firstName).toHaveAccessibleDescription(
          expect.stringContaining('This candidate is already indexed at this school for this course header'),
        ),
      { timeout: 10_000 },
    );
    expect(firstName).toHaveAttribute('aria-invalid', 'true');
    expect(firstName).toHaveValue('Chidi');
    expect(screen.getByLabelText('Exam number 1 *')).toHaveValue('4250654321');
    expect(screen.getByLabelText('Course header *')).toHaveValue('A1');
    expect(window.location.pathname).toBe('/candidate/index-a-candidate');
    actors.stopAll();
  });
});
