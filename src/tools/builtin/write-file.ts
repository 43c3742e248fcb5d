// write_file: creates or overwrites a file; overwriting needs a read in this turn (R-TOOL-1).
import { mkdir, stat } from "node:fs/promises";
import { dirname } from "node:path";
import * as z from "zod/mini";
import { lazySchema } from "../lazy-schema.js";
import { displayPath, resolvePath } from "../paths.js";
import { errorMessage, fail, ok } from "../results.js";
import { located, text } from "../present.js";
import type { Tool } from "../types.js";
import { checkEditable, writeAndMark } from "./edit-common.js";

const schema = lazySchema(() =>
  z.object({
    path: z.string().check(z.describe("File path")),
    content: z.string().check(z.describe("Full new content")),
  }),
);
type Args = z.infer<ReturnType<typeof schema>>;

export const writeFileTool: Tool<Args> = {
  name: "write_file",
  description:
    "Create a file (parent folders too) or replace its whole content. Overwriting an existing file needs a " +
    "read_file of it in this turn; prefer edit_file for small changes.",
  get schema() {
    return schema();
  },
  kind: "edit",
  paths: (args) => [args.path],
  present: (args) => ({
    title: `${text(args.path)} (${lineCount(text(args.content))} lines)`,
    kind: "edit",
    locations: located(args.path),
    ...(typeof args.content === "string" ? { preview: { type: "text", text: args.content, line: 1 } } : {}),
  }),
  async run(args, ctx) {
    const abs = resolvePath(ctx.cwd, args.path);
    const shown = displayPath(ctx.cwd, abs);
    try {
      let existed = false;
      try {
        const st = await stat(abs);
        if (st.isDirectory()) return fail(`${shown} is a directory.`);
        existed = true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      }
      if (existed) {
        const refusal = await checkEditable(abs, ctx);
        if (refusal) return fail(refusal);
      }
      await mkdir(dirname(abs), { recursive: true });
      await writeAndMark(abs, args.content, ctx);
      const lines =
        args.content === "" ? 0 : args.content.split("\n").length - (args.content.endsWith("\n") ? 1 : 0);
      return ok(`${existed ? "Overwrote" : "Created"} ${shown} (${lines} lines).`);
    } catch (err) {
      return fail(`Cannot write ${shown}: ${errorMessage(err)}`);
    }
  },
};

function lineCount(content: string): number {
  return content === "" ? 0 : content.replace(/\n$/, "").split("\n").length;
}
