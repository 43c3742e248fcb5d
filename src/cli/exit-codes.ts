// What `tern run` exits with for how its turn ended (R-CLI-2): part of the CLI contract, so it
// lives with the CLI; the library API exports it for programs that want to exit the same way.
import type { TurnOutcome } from "../engine/stop.js";

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
