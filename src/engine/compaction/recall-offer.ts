// When a session's requests offer `recall` (R-COMP-7): it reads what compaction took out of the
// model context, so before the first compaction there is nothing to read and the tool would only
// cost bytes in every request. The first compaction that replaced something (a shed or an
// applied summary; not one that failed) changes the prefix anyway (SPEC §8), and from then on
// recall is offered for good, so the tool list stays byte-identical round after round. A resumed
// session whose record holds such a compaction offers it from its first request.
import type { RecordFold } from "../../record/fold.js";
import type { ToolRegistry } from "../../tools/registry.js";

const RECALL = "recall";

export function offerRecallOnceCompacted(registry: ToolRegistry, fold: RecordFold): void {
  let compacted = false;
  // The archive only grows: each check reads the lines added since the last one.
  let seen = 0;
  registry.offerWhen(RECALL, () => {
    const lines = fold.archive;
    for (; !compacted && seen < lines.length; seen++) {
      const line = lines[seen];
      compacted = line.type === "compaction" && line.failed === undefined;
    }
    return compacted;
  });
}
