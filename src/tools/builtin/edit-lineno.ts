// edit_lineno: replaces lines start..end, 1-based inclusive (R-TOOL-1); needs a read in this turn.
import * as z from "zod/mini";
import { lazySchema } from "../lazy-schema.js";
import { displayPath, resolvePath } from "../paths.js";
import { errorMessage, fail, ok } from "../results.js";
import { located, text } from "../present.js";
import type { Tool } from "../types.js";
import { editThroughDescriptor, unreadRefusal } from "./edit-common.js";
import { joinFileText, splitFileText } from "./file-text.js";
import { numberLines } from "./read-file.js";

const CONTEXT = 2;

const schema = lazySchema(() =>
  z.object({
    path: z.string(),
    start_line: z.int().check(z.minimum(1)),
    end_line: z.int().check(z.minimum(0)),
    new_text: z.string(),
  }),
);
type Args = z.infer<ReturnType<typeof schema>>;

export const editLinenoTool: Tool<Args> = {
  name: "edit_lineno",
  description:
    "Replace lines start_line..end_line (inclusive, numbered as by read_file) with new_text; " +
    "end_line = start_line - 1 inserts.",
  get schema() {
    return schema();
  },
  kind: "edit",
  paths: (args) => [args.path],
  refuseEarly: unreadRefusal,
  present: (args) => ({
    title: `${text(args.path)}:${text(args.start_line)}-${text(args.end_line)}`,
    kind: "edit",
    locations: located(args.path, args.start_line),
    ...(typeof args.new_text === "string"
      ? {
          preview: {
            type: "text",
            text: args.new_text,
            line: Number(args.start_line) || 1,
            note: `replaces lines ${text(args.start_line)}-${text(args.end_line)} with:`,
          },
        }
      : {}),
  }),
  async run(args, ctx) {
    const abs = resolvePath(ctx.cwd, args.path);
    const shown = displayPath(ctx.cwd, abs);
    try {
      const { start_line: start, end_line: end } = args;
      const inserted = args.new_text === "" ? [] : args.new_text.replace(/\r?\n$/, "").split(/\r?\n/);
      let lines: string[] = [];
      const done = await editThroughDescriptor(abs, ctx, { create: false, read: true, shown }, ({ text }) => {
        // Untouched lines keep their own endings and a BOM stays; new lines take the file's (R-EDIT-2).
        const ft = splitFileText(text);
        lines = ft.lines;
        const finalNewline = ft.endings.at(-1) !== "";
        const n = lines.length;
        if (start > n + 1 || end < start - 1 || end > n) {
          return fail(
            `Invalid range ${start}..${end} for ${shown}, which has ${n} lines. ` +
              `Use 1 <= start_line <= ${n + 1} and start_line-1 <= end_line <= ${n}.`,
          );
        }
        lines.splice(start - 1, end - start + 1, ...inserted);
        ft.endings.splice(start - 1, end - start + 1, ...inserted.map(() => ft.eol));
        if (ft.endings.length > 0)
          ft.endings[ft.endings.length - 1] = finalNewline ? ft.endings.at(-1) || ft.eol : "";
        return joinFileText(ft);
      });
      if ("result" in done) return done.result;
      const from = Math.max(1, start - CONTEXT);
      const to = Math.min(lines.length, start + inserted.length - 1 + CONTEXT);
      const around = to >= from ? `\n${numberLines(lines.slice(from - 1, to), from)}` : "";
      return ok(
        `Edited ${shown}: replaced ${end - start + 1} line(s) at ${start} with ${inserted.length}; ` +
          `file now has ${lines.length} lines.${around}`,
      );
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return fail(`File not found: ${shown}`);
      return fail(`Cannot edit ${shown}: ${errorMessage(err)}`);
    }
  },
};
