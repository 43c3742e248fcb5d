// edit_file: replaces an exact, unique string (R-TOOL-1); needs a read in this turn.
import * as z from "zod/mini";
import { lazySchema } from "../lazy-schema.js";
import { displayPath, resolvePath } from "../paths.js";
import { errorMessage, fail, ok } from "../results.js";
import { located, text } from "../present.js";
import type { Tool } from "../types.js";
import { editThroughDescriptor, unreadRefusal } from "./edit-common.js";

const schema = lazySchema(() =>
  z.object({
    path: z.string().check(z.describe("File path")),
    old_string: z.string().check(z.describe("Exact text to replace")),
    new_string: z.string().check(z.describe("Replacement text")),
    replace_all: z.optional(z.boolean()).check(z.describe("Replace every occurrence")),
  }),
);
type Args = z.infer<ReturnType<typeof schema>>;

function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) count++;
  return count;
}

export const editFileTool: Tool<Args> = {
  name: "edit_file",
  description:
    "Replace an exact string in a file. old_string must match exactly once (whitespace included) unless " +
    "replace_all is true. Read the file in this turn first.",
  get schema() {
    return schema();
  },
  kind: "edit",
  paths: (args) => [args.path],
  refuseEarly: unreadRefusal,
  present: (args) => ({
    title: `${text(args.path)}${args.replace_all ? " (all occurrences)" : ""}`,
    kind: "edit",
    locations: located(args.path),
    ...(typeof args.old_string === "string" && typeof args.new_string === "string"
      ? { preview: { type: "diff", before: args.old_string, after: args.new_string } }
      : {}),
  }),
  async run(args, ctx) {
    const abs = resolvePath(ctx.cwd, args.path);
    const shown = displayPath(ctx.cwd, abs);
    if (args.old_string === "") return fail("old_string is empty; use write_file to create a file.");
    if (args.old_string === args.new_string)
      return fail("old_string and new_string are identical; nothing to change.");
    try {
      let count = 0;
      const done = await editThroughDescriptor(abs, ctx, { create: false, read: true, shown }, ({ text }) => {
        count = countOccurrences(text, args.old_string);
        if (count === 0) {
          return fail(
            `old_string not found in ${shown} (0 matches). Check whitespace and indentation, or read the file again.`,
          );
        }
        if (count > 1 && !args.replace_all) {
          return fail(
            `old_string matches ${count} times in ${shown}. Add surrounding lines to make it unique, or set replace_all: true.`,
          );
        }
        return args.replace_all
          ? text.split(args.old_string).join(args.new_string)
          : text.replace(args.old_string, () => args.new_string);
      });
      if ("result" in done) return done.result;
      return ok(`Edited ${shown}: replaced ${count} occurrence${count === 1 ? "" : "s"}.`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return fail(`File not found: ${shown}`);
      return fail(`Cannot edit ${shown}: ${errorMessage(err)}`);
    }
  },
};
