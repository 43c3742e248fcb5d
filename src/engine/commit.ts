// The one path a record line takes to disk: the fold's full check first, then the write, then
// the fold. A line the fold would refuse must never reach record.jsonl, or the session could not
// be loaded again (every load re-runs the same check).
import type { RecordFold } from "../record/fold.js";
import type { NewRecord, RecordLine } from "../record/types.js";
import type { RecordWriter } from "../record/writer.js";

export function commitChecked(fold: RecordFold, writer: RecordWriter, record: NewRecord): RecordLine {
  const why = fold.check(record);
  if (why) throw new Error(`internal: refused to commit ${record.type}: ${why}`);
  const line = writer.append(record);
  fold.apply(line);
  return line;
}
