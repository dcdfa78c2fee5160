// @vitest-environment jsdom
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedInAsAdmin } from './app';

/**
 * AuditChain (src/audit/AuditChain.tsx) against the ui project's real portal: the chain's head with its
 * time and hash, "Verify the log" answering in words, a printed head compared, and a bad one refused
 * under its field.
 */

beforeAll(signedInAsAdmin);

describe('the audit chain for a board admin', () => {
  it('shows the head, verifies the log, and compares a printed head', async () => {
    const { AuditChain } = await import('../../src/audit/AuditChain');
    await act(async () => {
      render(<AuditChain />);
    });
    const hash = await screen.findByText(/^[0-9a-f]{64}$/);
    expect(screen.getByText(/^\(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z\)$/)).toBeInTheDocument();
    const lastEntry = screen.getByText('Last entry').nextElementSibling!.textContent!;

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Verify the log' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      /^The log is whole: \d+ entr(y|ies) checked, each chained to the one before, ending at the chain's head \(entry \d+\)\. \(Checked in [\d.]+ s\.\)$/,
    );

    await user.type(screen.getByLabelText('Printed entry (optional)'), lastEntry);
    await user.type(screen.getByLabelText('Printed hash (optional)'), hash.textContent!);
    await user.click(screen.getByRole('button', { name: 'Verify the log' }));
    expect(await screen.findByRole('status')).toHaveTextContent(/^The log is whole/);

    await user.clear(screen.getByLabelText('Printed hash (optional)'));
    await user.type(screen.getByLabelText('Printed hash (optional)'), 'abc');
    await user.click(screen.getByRole('button', { name: 'Verify the log' }));
    const hashField = screen.getByLabelText('Printed hash (optional)');
    expect(
      await within(hashField.parentElement!.parentElement!).findByText(
        'The printed hash is 64 characters, 0-9 and a-f, as printed.',
      ),
    ).toBeInTheDocument();
  });
});
