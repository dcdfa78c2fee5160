// @vitest-environment jsdom
import { act, createElement, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { getLiveStates } from '../src/app/liveStates';
import { useLiveActorRef } from '../src/app/useLiveActorRef';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A page's actor made with useLiveActorRef is in the live list while the page shows, and leaves with it. */

const formMachine = setup({}).createMachine({
  id: 'someForm',
  initial: 'editing',
  states: { editing: {} },
});

function Page() {
  useLiveActorRef(formMachine);
  return null;
}

describe('useLiveActorRef', () => {
  it('lists the page’s actor once while it is mounted (also under StrictMode’s remount) and drops it after', () => {
    const forms = () => getLiveStates().actors.filter((a) => a.machine === 'someForm');
    const root = createRoot(document.createElement('div'));
    act(() => root.render(createElement(StrictMode, null, createElement(Page))));
    expect(forms()).toEqual([expect.objectContaining({ actor: 'someForm', value: 'editing' })]);
    act(() => root.render(createElement(StrictMode)));
    expect(forms()).toEqual([]);
    act(() => root.unmount());
  });
});
