// edit_file: replaces an exact, unique string (R-TOOL-1), or several in order, all or none
// (R-EDIT-3); needs a read in this turn. Where an edit lands — line endings and BOM kept, the
// careful fallback when the exact text is nowhere — is edit-match.ts.
import * as z from "zod/mini";
import { lazySchema, saidInDescription } from "../lazy-schema.js";
import { displayPath, resolvePath } from "../paths.js";
import { located, text } from "../present.js";
import { errorMessage, fail, ok } from "../results.js";
import type { Tool, ToolResult } from "../types.js";
import { editThroughDescriptor, unreadRefusal } from "./edit-common.js";
import { applyEdit, type EditSpec } from "./edit-match.js";

const schema = lazySchema(() =>
  z.object({
    path: z.string(),
    old_string: z.optional(z.string()),
    new_string: z.optional(z.string()),
    replace_all: z.optional(z.boolean()),
    edits: z.optional(
      z
        .array(
          z.object({
            old_string: z.string(),
            new_string: z.string(),
            replace_all: z.optional(z.boolean()),
          }),
        )
        .check(saidInDescription()),
    ),
  }),
);
type Args = z.infer<ReturnType<typeof schema>>;

/** The edits a call asks for, or why it is malformed. */
function editsOf(args: Args): EditSpec[] | string {
  const single = args.old_string !== undefined || args.new_string !== undefined;
  if (args.edits !== undefined) {
    if (single) return "Give either old_string/new_string or edits, not both.";
    if (args.edits.length === 0) return "edits is empty; nothing to change.";
    return args.edits;
  }
  if (args.old_string === undefined || args.new_string === undefined)
    return "Give old_string and new_string (or edits: [{old_string, new_string}, …]).";
  return [{ old_string: args.old_string, new_string: args.new_string, replace_all: args.replace_all }];
}

function previewOf(args: Record<string, unknown>) {
  if (typeof args.old_string === "string" && typeof args.new_string === "string")
    return { preview: { type: "diff" as const, before: args.old_string, after: args.new_string } };
  if (!Array.isArray(args.edits)) return {};
  const pairs = args.edits.filter(
    (e): e is EditSpec => typeof e?.old_string === "string" && typeof e?.new_string === "string",
  );
  if (pairs.length === 0) return {};
  const join = (side: "old_string" | "new_string") => pairs.map((e) => e[side]).join("\n…\n");
  return { preview: { type: "diff" as const, before: join("old_string"), after: join("new_string") } };
}

export const editFileTool: Tool<Args> = {
  name: "edit_file",
  description:
    "Replace old_string (one exact match unless replace_all) with new_string; or edits " +
    "[{old_string, new_string, replace_all?}] in order, all or none.",
  get schema() {
    return schema();
  },
  kind: "edit",
  paths: (args) => [args.path],
  refuseEarly: unreadRefusal,
  present: (args) => ({
    title: `${text(args.path)}${args.replace_all ? " (all occurrences)" : ""}${
      Array.isArray(args.edits) ? ` (${args.edits.length} edits)` : ""
    }`,
    kind: "edit",
    locations: located(args.path),
    ...previewOf(args),
  }),
  async run(args, ctx) {
    const abs = resolvePath(ctx.cwd, args.path);
    const shown = displayPath(ctx.cwd, abs);
    const edits = editsOf(args);
    if (typeof edits === "string") return fail(edits);
    const several = edits.length > 1;
    const which = (i: number) => (several ? `edit ${i + 1} of ${edits.length}: ` : "");
    for (const [i, e] of edits.entries()) {
      if (e.old_string === "")
        return fail(`${which(i)}old_string is empty; use write_file to create a file.`);
      if (e.old_string === e.new_string)
        return fail(`${which(i)}old_string and new_string are identical; nothing to change.`);
    }
    try {
      const done: string[] = [];
      const outcome = await editThroughDescriptor(
        abs,
        ctx,
        { create: false, read: true, shown },
        ({ text }): string | ToolResult => {
          let raw = text;
          for (const [i, e] of edits.entries()) {
            const r = applyEdit(raw, e, shown);
            if (!r.ok) return fail(`${which(i)}${r.message}${several ? " No edit was applied." : ""}`);
            raw = r.raw;
            const how = r.relaxation ? ` (matched with ${r.relaxation})` : "";
            done.push(`${r.count} occurrence${r.count === 1 ? "" : "s"}${how}`);
          }
          return raw;
        },
      );
      if ("result" in outcome) return outcome.result;
      if (!several) return ok(`Edited ${shown}: replaced ${done[0]}.`);
      return ok(
        `Edited ${shown}: ${edits.length} edits applied: ${done.map((d, i) => `${i + 1}) ${d}`).join("; ")}.`,
      );
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return fail(`File not found: ${shown}`);
      return fail(`Cannot edit ${shown}: ${errorMessage(err)}`);
    }
  },
};
