// recall: the reading door of R-COMP-7; returns archived content that compaction removed.
import { z } from "zod";
import { errorMessage, fail, ok } from "../results.js";
import type { Tool } from "../types.js";

const schema = z.object({
  turn: z.number().int().min(1).describe("Turn number"),
  round: z.number().int().min(1).optional().describe("Round within the turn"),
});
type Args = z.infer<typeof schema>;

export const recallTool: Tool<Args> = {
  name: "recall",
  description:
    "Return the full archived content of an earlier turn (or one round of it) that compaction replaced " +
    "with a summary or placeholder.",
  schema,
  kind: "read",
  paths: () => [],
  async run(args, ctx) {
    if (!ctx.recall) {
      return ok("Nothing has been compacted in this session, so everything is already in your context.");
    }
    try {
      return ok(ctx.recall(args.turn, args.round));
    } catch (err) {
      return fail(errorMessage(err));
    }
  },
};
