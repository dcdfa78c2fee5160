/**
 * A small seeded generator (mulberry32, a few lines, public domain): the demo and the bench make the
 * same rows on every run, so two fresh starts look the same. Not for secrets (server/secrets.ts).
 */
export function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const weighted = <T>(items: readonly T[], weights: readonly number[]) => {
    const total = weights.reduce((a, b) => a + b, 0);
    let at = next() * total;
    for (let i = 0; i < items.length; i++) if ((at -= weights[i]) < 0) return items[i];
    return items[items.length - 1];
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  /** `count` different items, in a random order. */
  const sample = <T>(items: readonly T[], count: number) => {
    const pool = [...items];
    for (let i = pool.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [pool[i], pool[j]] = [pool[j], pool[i]];
    }
    return pool.slice(0, count);
  };
  return { next, pick, weighted, int, sample, chance: (p: number) => next() < p };
}

export type Random = ReturnType<typeof random>;

/** A seed from a name (FNV-1a), so each demo area draws from its own stream: an area added later
 * changes nothing the others made. */
export function seedOf(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
