// A full garbage collection when a turn ends and the UI waits for the person. V8 keeps the old
// generation's garbage (and the pages under it) until its heap grows past its next limit, so a
// long session's RSS was mostly garbage: ~167 MB after 500 rounds with ~40 MB live. Collected at
// each idle moment it stays near what is live (R-UI-22's memory figure); a full collection of a
// heap this size takes tens of milliseconds, while nothing is drawn.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let collect: (() => void) | undefined;

export function collectWhileIdle(): void {
  if (!collect) {
    // Node's documented way to reach V8's gc() without starting with --expose-gc.
    setFlagsFromString("--expose-gc");
    collect = runInNewContext("gc") as () => void;
  }
  collect();
}
