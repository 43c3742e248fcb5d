// Replaying a loaded record into a fold. A line the fold refuses (a result for a call that is
// not open, a message out of phase) is named by the file and line it came from, as every other
// load error is (R-REC-4), not only by its seq.
import { RecordError } from "./errors.js";
import type { RecordFold } from "./fold.js";
import type { LoadedRecord } from "./load.js";

export function replayInto(fold: RecordFold, loaded: LoadedRecord): RecordFold {
  loaded.lines.forEach((line, k) => {
    try {
      fold.apply(line);
    } catch (err) {
      if (!(err instanceof RecordError)) throw err;
      throw new RecordError(`${loaded.name}: line ${loaded.lineNumbers[k]}: ${err.message}`);
    }
  });
  return fold;
}
