// One policy for making a context smaller, shared by compaction (which records what it sheds)
// and side questions (which shrink a copy in memory): what counts as big, how far it is cut,
// and the budget a request is planned against.
import type { ResolvedModel } from "../../config/types.js";

/** A tool result longer than this (chars) is replaced by a placeholder; shorter ones stay. */
export const SHED_TOOL_RESULT_OVER = 300;
/** A text longer than this (chars) is cut to CUT_TEXT_TO, with a note saying how much was left out. */
export const CUT_TEXT_OVER = 2000;
export const CUT_TEXT_TO = 600;

/** The tokens a request may take: the compaction threshold's share of the window, or all of it when auto-compaction is off. */
export function requestLimitFor(autoCompactThreshold: number, model: ResolvedModel): number {
  const window = model.info.contextWindow;
  return autoCompactThreshold > 0 ? autoCompactThreshold * window : window;
}
