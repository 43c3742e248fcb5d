// What `tern run` exits with for how its turn ended (R-CLI-2). Kept with what the front ends
// share, so the CLI and the library API (a program that wants to exit as `tern run` does) read one table.
import type { TurnOutcome } from "../engine/door/outcome.js";

export function exitCodeFor(stop: TurnOutcome["stopReason"]): number {
  switch (stop) {
    case "completed":
      return 0;
    case "failed":
      return 1;
    case "cancelled":
      return 130;
    default:
      return 3;
  }
}
