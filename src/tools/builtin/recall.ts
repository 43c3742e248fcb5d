// recall: the reading door of R-COMP-7; returns archived content that compaction removed.
import * as z from "zod/mini";
import { lazySchema } from "../lazy-schema.js";
import { errorMessage, fail, ok } from "../results.js";
import { text } from "../present.js";
import type { Tool } from "../types.js";

const schema = lazySchema(() =>
  z.object({
    turn: z.int().check(z.minimum(1)),
    round: z.optional(z.int().check(z.minimum(1))),
    offset: z.optional(z.int().check(z.minimum(0))),
  }),
);
type Args = z.infer<ReturnType<typeof schema>>;

export const recallTool: Tool<Args> = {
  name: "recall",
  description:
    "Full text of an earlier turn (or round) that compaction summarized; long ones come in pages, each " +
    "ending with the next offset.",
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
