// @vitest-environment jsdom
import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedInAsAdmin } from './app';

/**
 * The one invalidation rule of the page loads (src/app/resource.tsx): a load is kept for a minute, and
 * any change the portal accepts makes every kept load stale. The change here is a real one, made through
 * the SPA's API client against the ui project's portal.
 */

beforeAll(signedInAsAdmin);

describe('kept loads', () => {
  it('are read again after a change the portal accepted, and not before', async () => {
    const { useResource } = await import('../../src/app/resource');
    const { call } = await import('../../src/api/client');
    let loads = 0;
    const load = async () => ++loads;
    function Reader() {
      return <p>{`load ${useResource('resource-test', load)}`}</p>;
    }
    const show = async () => {
      let view!: ReturnType<typeof render>;
      // React 19 resumes a suspended render inside act only: let the load settle in it.
      await act(async () => {
        view = render(
          <Suspense fallback={<p>waiting</p>}>
            <Reader />
          </Suspense>,
        );
      });
      const text = (await screen.findByText(/^load \d+$/)).textContent;
      view.unmount();
      return text;
    };

    expect(await show()).toBe('load 1');
    expect(await show()).toBe('load 1');
    // A refused change changes nothing: the kept load stays.
    await expect(
      call('/api/admin/user-profile-update', { method: 'POST', body: { email: 'not an email' } }),
    ).rejects.toMatchObject({ status: 422 });
    expect(await show()).toBe('load 1');
    await call('/api/admin/user-profile-update', {
      method: 'POST',
      // The demo admin's own details, sent again: an accepted change that leaves the other tests' data as it was.
      body: { name: 'Adaeze Okafor', email: 'admin@example.org', phone_number: '+234 803 000 0001' },
    });
    expect(await show()).toBe('load 2');
    expect(await show()).toBe('load 2');
  });
});
