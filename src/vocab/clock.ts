// Durations and deadlines are measured on the monotonic clock, which never steps: a wall clock
// set back or forward an hour mid-turn (NTP, a suspended laptop, a person) must not make a turn
// last -1 h or pass its duration budget. Dates in records stay wall time. process.hrtime is the
// same clock as performance.now (libuv's uv_hrtime), without loading perf_hooks and its nine
// internal modules (~0.7 MB of a one-round run's peak RSS).

/** Milliseconds on the monotonic clock: only differences mean anything. */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** Whole milliseconds since `start` (a `monotonicMs()` reading), never negative. */
export function elapsedMs(start: number): number {
  return Math.max(0, Math.round(monotonicMs() - start));
}
