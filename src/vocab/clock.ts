// Durations and deadlines are measured on the monotonic clock (performance.now), which never
// steps: a wall clock set back or forward an hour mid-turn (NTP, a suspended laptop, a person)
// must not make a turn last -1 h or pass its duration budget. Dates in records stay wall time.

/** Milliseconds on the monotonic clock: only differences mean anything. */
export function monotonicMs(): number {
  return performance.now();
}

/** Whole milliseconds since `start` (a `monotonicMs()` reading), never negative. */
export function elapsedMs(start: number): number {
  return Math.max(0, Math.round(performance.now() - start));
}
