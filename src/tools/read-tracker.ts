// Read-before-edit (R-TOOL-1): an edit needs a read of the same file in this turn, and the
// file must not have changed on disk since then.
import type { ReadTracker } from "./types.js";

export class TurnReadTracker implements ReadTracker {
  private readonly reads = new Map<string, number>();

  markRead(absPath: string, mtimeMs: number): void {
    this.reads.set(absPath, mtimeMs);
  }

  checkEditable(absPath: string, currentMtimeMs: number): string | null {
    const seen = this.reads.get(absPath);
    if (seen === undefined) {
      return `Read ${absPath} with read_file before editing it (edits need a read in this turn).`;
    }
    if (seen !== currentMtimeMs) {
      return `${absPath} changed on disk since you read it; read it again before editing.`;
    }
    return null;
  }

  reset(): void {
    this.reads.clear();
  }
}
