// @vitest-environment jsdom
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { SCHOOLS_LIST } from '../../contract/lists';
import type { SchoolRow } from '../../contract/schools';
import { signedInAsAdmin } from './app';

/**
 * A list whose rows hold work of their own (score entry will) asks before a change of page, filter or
 * order would replace them: the one list hook and view, on the real schools list of a real portal. The
 * rows here report their unsaved work with a button, as a score row would when a mark is typed.
 */

beforeEach(() => {
  signedInAsAdmin();
  window.history.replaceState(null, '', '/school');
});

async function renderList() {
  const { useList } = await import('../../src/pages/pagedList');
  const { ListView } = await import('../../src/ui/ListView');
  function SchoolsWithWork() {
    const list = useList(SCHOOLS_LIST);
    return (
      <ListView<SchoolRow> list={list} definition={SCHOOLS_LIST}>
        {(page) => (
          <ul>
            {page.items.map((school) => (
              <li key={school.id}>
                {school.code}
                <button type="button" onClick={() => list.send({ type: 'list.row.dirty', id: school.id })}>
                  Change {school.code}
                </button>
              </li>
            ))}
          </ul>
        )}
      </ListView>
    );
  }
  render(<SchoolsWithWork />);
  await screen.findByRole('button', { name: 'Change SHT-IB' }, { timeout: 10_000 });
}

const codes = () => screen.getAllByRole('listitem').map((item) => item.firstChild?.textContent);

describe('a list with unsaved work', () => {
  it('asks before another order replaces it; staying keeps the rows, leaving shows the new order', async () => {
    const user = userEvent.setup();
    await renderList();
    const byName = codes();
    await user.click(screen.getByRole('button', { name: 'Change SHT-IB' }));

    await user.selectOptions(screen.getByLabelText('Sort by'), 'code:desc');
    const question = await screen.findByRole('alertdialog', { name: 'Unsaved changes' });
    expect(within(question).getByText('You have unsaved changes on this page. Leave them?')).toBeVisible();
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(codes()).toEqual(byName);
    expect(window.location.search).toBe('');

    await user.selectOptions(screen.getByLabelText('Sort by'), 'code:desc');
    await user.click(
      within(await screen.findByRole('alertdialog', { name: 'Unsaved changes' })).getByRole('button', {
        name: 'Leave them',
      }),
    );
    const descending = [...byName].sort().reverse();
    await waitFor(() => expect(codes()).toEqual(descending));
    // The order is in the address, so a reload shows the same rows.
    expect(window.location.search).toBe('?sort=code&direction=desc');
  });

  it('without unsaved work, changes at once', async () => {
    const user = userEvent.setup();
    await renderList();
    await user.selectOptions(screen.getByLabelText('Sort by'), 'code:asc');
    await waitFor(() => expect(codes()).toEqual([...codes()].sort()));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(window.location.search).toBe('?sort=code&direction=asc');
  });
});
