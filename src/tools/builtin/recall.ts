// recall: the reading door of R-COMP-7; returns archived content that compaction removed.
import * as z from "zod/mini";
import { lazySchema } from "../lazy-schema.js";
import { errorMessage, fail, ok } from "../results.js";
import { text } from "../present.js";
import type { Tool } from "../types.js";

const schema = lazySchema(() =>
  z.object({
    turn: z.int().check(z.minimum(1), z.describe("Turn number")),
    round: z.optional(z.int().check(z.minimum(1))).check(z.describe("Round within the turn")),
    offset: z
      .optional(z.int().check(z.minimum(0)))
      .check(z.describe("Where to continue reading: the offset named at the end of the previous page")),
  }),
);
type Args = z.infer<ReturnType<typeof schema>>;

export const recallTool: Tool<Args> = {
  name: "recall",
  description:
    "Return the full archived content of an earlier turn (or one round of it) that compaction replaced " +
    "with a summary or placeholder, one page at a time; a long text ends with the offset of the next page.",
  get schema() {
    return schema();
  },
  kind: "read",
  paths: () => [],
  present: (args) => ({
    title: `turn ${text(args.turn)}${args.round ? ` round ${text(args.round)}` : ""}`,
    kind: "read",
    locations: [],
  }),
  async run(args, ctx) {
    if (!ctx.recall) {
      return ok("Nothing has been compacted in this session, so everything is already in your context.");
    }
    try {
      return ok(ctx.recall(args.turn, args.round, args.offset));
    } catch (err) {
      return fail(errorMessage(err));
    }
  },
};
