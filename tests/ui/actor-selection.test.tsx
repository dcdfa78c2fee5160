import { act, render, screen } from '@testing-library/react';
import { assign, createActor, setup } from 'xstate';
import { describe, expect, it } from 'vitest';
import { ActorsProvider, useAppActor } from '../../src/app/actors';
import type { AppActors } from '../../src/app/appActors';

/** A stand-in app actor with two counters: a view selects one of them. */
const counters = setup({
  types: {
    context: {} as { shown: number; other: number },
    events: {} as { type: 'shown.up' } | { type: 'other.up' },
  },
}).createMachine({
  context: { shown: 0, other: 0 },
  on: {
    'shown.up': { actions: assign({ shown: ({ context }) => context.shown + 1 }) },
    'other.up': { actions: assign({ other: ({ context }) => context.other + 1 }) },
  },
});

describe('a view over an app-wide actor', () => {
  it('renders again when what it selects changes, not at every snapshot', () => {
    const actor = createActor(counters).start();
    let renders = 0;
    function View() {
      renders++;
      const shown = useAppActor('idle' as never, (s: { context: { shown: number } }) => s.context.shown);
      return <p>shown {shown}</p>;
    }
    render(
      <ActorsProvider actors={{ idle: actor } as unknown as AppActors}>
        <View />
      </ActorsProvider>,
    );
    expect(screen.getByText('shown 0')).toBeTruthy();
    const before = renders;
    act(() => {
      actor.send({ type: 'other.up' });
      actor.send({ type: 'other.up' });
    });
    expect(renders).toBe(before);
    act(() => actor.send({ type: 'shown.up' }));
    expect(screen.getByText('shown 1')).toBeTruthy();
    expect(renders).toBe(before + 1);
    actor.stop();
  });
});
