// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { portal, renderApp } from './app';

/**
 * The real App, its real session actor and API client, against a real portal over HTTP: only the
 * browser is jsdom. (The same flows run in Chromium in tests/e2e.)
 */

beforeEach(() => {
  document.cookie.split('; ').forEach((c) => (document.cookie = `${c.split('=')[0]}=; Path=/; Max-Age=0`));
  sessionStorage.clear();
});

describe('signing in', () => {
  it('goes from /login through the mailed code to the dashboard, with the sidebar of the role', async () => {
    const user = userEvent.setup();
    const actors = await renderApp('/login');
    await user.type(await screen.findByLabelText('Email address'), 'school1@example.org');
    await user.type(screen.getByLabelText('Password'), 'demo-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    const codeField = await screen.findByLabelText('Confirmation code');
    expect(window.location.pathname).toBe('/auth-confirm-code');
    expect(screen.getByText('school1@example.org')).toBeInTheDocument();

    await user.type(codeField, '000000');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(/That code is not right or has expired./)).toBeInTheDocument();
    expect(screen.getByLabelText('Confirmation code')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Confirmation code')).toHaveValue('000000');

    await user.clear(screen.getByLabelText('Confirmation code'));
    await user.type(screen.getByLabelText('Confirmation code'), portal.readCode('school1@example.org'));
    await user.click(screen.getByRole('button', { name: 'Confirm' }));

    const nav = await screen.findByRole('navigation', { name: 'Main' }, { timeout: 5000 });
    expect(window.location.pathname).toBe('/overview');
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Dashboard', 'Registered Candidates', 'Resit Candidates', 'Print Documents', 'Payments']);
    expect(document.cookie).toMatch(/token=/);
    expect(document.cookie).toMatch(/user_role=school_admin/);
    actors.stopAll();
  });

  it('shows the server message beside the email and keeps what was typed', async () => {
    const user = userEvent.setup();
    const actors = await renderApp('/login');
    await user.type(await screen.findByLabelText('Email address'), 'nobody@example.org');
    await user.type(screen.getByLabelText('Password'), 'whatever');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('These credentials do not match our records.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email address')).toHaveValue('nobody@example.org');
    expect(screen.getByLabelText('Email address')).toHaveAttribute('aria-invalid', 'true');
    actors.stopAll();
  });

  it('sends a signed-out visitor of a shell page to /login with redirect-to', async () => {
    const actors = await renderApp('/candidate/resit');
    await screen.findByRole('heading', { name: 'Sign in' });
    await waitFor(() =>
      expect(window.location.pathname + window.location.search).toBe(
        '/login?redirect-to=%2Fcandidate%2Fresit',
      ),
    );
    actors.stopAll();
  });
});
