import { createActor, type ActorRefFrom } from 'xstate';
import type { Grid } from '../../../contract/scores';
import { markRowMachine } from '../../../machines/markRow.machine';
import { scoreSheetMachine } from '../../../machines/scoreSheet.machine';
import { loadGrid, lockSheet, saveRow, submitGrid, unlockSheet } from '../../api/scores';
import { inspectAppActors } from '../../app/liveStates';

/**
 * The score sheets open in this tab: one actor per user, sheet and grid, kept outside the page, so a
 * marker who goes to another page with marks still on their way finds them saved (the rows' saves go
 * on) and comes back to the grid as they left it. Closing or reloading the tab while marks are unsaved
 * is asked first by the browser. At most a few are kept; those with nothing unsaved go first.
 */

export type SheetActor = ActorRefFrom<typeof scoreSheetMachine>;

const KEEP = 4;
const open = new Map<string, SheetActor>();

const logic = scoreSheetMachine.provide({
  actors: {
    loadGrid,
    submitGrid,
    lockSheet,
    unlockSheet,
    markRow: markRowMachine.provide({ actors: { saveRow } }),
  },
});

const hasUnsaved = (actor: SheetActor) => actor.getSnapshot().context.unsaved.length > 0;

export function openSheet(userId: number, sheetId: number, grid: Grid): SheetActor {
  const key = `${userId}:${sheetId}:${grid}`;
  const kept = open.get(key);
  if (kept) {
    // The most recently opened last, so the oldest is let go first.
    open.delete(key);
    open.set(key, kept);
    return kept;
  }
  // In the user's live state while it is kept (liveStates.ts): its rows are not listed, only the sheet.
  const actor = createActor(logic, { input: { sheetId, grid }, inspect: inspectAppActors });
  actor.start();
  open.set(key, actor);
  for (const [other, ref] of open) {
    if (open.size <= KEEP) break;
    if (other !== key && !hasUnsaved(ref)) {
      ref.stop();
      open.delete(other);
    }
  }
  return actor;
}

/** Whether any open sheet holds marks not saved yet. */
const anyUnsaved = () => [...open.values()].some(hasUnsaved);

if (typeof window !== 'undefined') {
  window.addEventListener('beforeunload', (event) => {
    if (anyUnsaved()) event.preventDefault();
  });
}
