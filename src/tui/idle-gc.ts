// Full garbage collections when a turn ends and the UI waits for the person. V8 keeps the old
// generation's garbage (and the pages under it) until its heap grows past its next limit, so a
// long session's RSS was mostly garbage: ~167 MB after 500 rounds with ~40 MB live. Collected at
// each idle moment it stays near what is live (R-UI-22's memory figure); a full collection of a
// heap this size takes tens of milliseconds, while nothing is drawn.
//
// The second collection is for the young generation: a busy turn grows its semi-spaces to
// 16 MB each (32 MB of pages, empty after a collection), and V8 gives them back only at a
// collection that finds the allocation rate of its last 5 s low (V8's new-space resizing). The
// first collection, 200 ms after the turn, still sees the turn's allocations; the one
// IDLE_SHRINK_MS later sees an idle UI, and the semi-spaces shrink to 1 MB: 137 -> 94-98 MB of
// RSS after a 500-round session (bench row "ui session RSS"). V8's own memory reducer did not
// do it: RSS stayed put over 20 s of idle.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** After the turn's last frame has gone out. */
const IDLE_COLLECT_MS = 200;
/** Past V8's 5 s allocation-throughput window, so the turn's allocations no longer count. */
const IDLE_SHRINK_MS = 6000;

let collect: (() => void) | undefined;

function collectWhileIdle(): void {
  if (!collect) {
    // Node's documented way to reach V8's gc() without starting with --expose-gc.
    setFlagsFromString("--expose-gc");
    collect = runInNewContext("gc") as () => void;
  }
  collect();
}

/** Both idle collections, from now (a turn just ended); the returned function cancels them. */
export function collectWhenIdle(): () => void {
  const timers = [
    setTimeout(collectWhileIdle, IDLE_COLLECT_MS),
    setTimeout(collectWhileIdle, IDLE_SHRINK_MS),
  ];
  // An idle UI waiting for the person must not be kept alive by its housekeeping.
  for (const timer of timers) timer.unref();
  return () => {
    for (const timer of timers) clearTimeout(timer);
  };
}
