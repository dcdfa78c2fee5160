import type { Logger } from '../log';
import type { Storage } from '../storage/storage';
import type { Database } from '../db/client';
import { random, seedOf, type Random } from './random';

/** What every area of the demo seed is given: the transaction, the storage and the seed's clock. */
export interface DemoSeed {
  tx: Database;
  storage: Storage;
  log: Logger;
  /** When the seed runs: the demo's dates are set back from it, so a fresh start always looks mid-year. */
  now: Date;
  /** Keys stored so far: removed again if the seed fails, since a transaction cannot span the storage. */
  storedKeys: string[];
}

/** The area's own generator (each area its own stream: an area added later changes no other's rows). */
export const areaRandom = (area: string): Random => random(seedOf(`demo:${area}`));

const DAY_MS = 24 * 60 * 60 * 1000;

/** `days` (may be fractional) before `now`. */
export const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

/** `days` after `date`. */
export const daysAfter = (date: Date, days: number) => new Date(date.getTime() + days * DAY_MS);

/** The date part, YYYY-MM-DD, in UTC (Lagos is UTC+1 with no summer time; whole days are what count). */
export const isoDay = (date: Date) => date.toISOString().slice(0, 10);
