// write_file: creates or overwrites a file; overwriting needs a read in this turn (R-TOOL-1).
import * as z from "zod/mini";
import { lazySchema } from "../lazy-schema.js";
import { displayPath, resolvePath } from "../paths.js";
import { errorMessage, fail, ok } from "../results.js";
import { located, text } from "../present.js";
import type { Tool } from "../types.js";
import { editThroughDescriptor, unreadRefusal } from "./edit-common.js";

const schema = lazySchema(() =>
  z.object({
    path: z.string(),
    content: z.string(),
  }),
);
type Args = z.infer<ReturnType<typeof schema>>;

export const writeFileTool: Tool<Args> = {
  name: "write_file",
  description: "Create (with its folders) or overwrite a file.",
  get schema() {
    return schema();
  },
  kind: "edit",
  paths: (args) => [args.path],
  refuseEarly: unreadRefusal,
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
      const done = await editThroughDescriptor(
        abs,
        ctx,
        { create: true, read: false, shown },
        () => args.content,
      );
      if ("result" in done) return done.result;
      const lines =
        args.content === "" ? 0 : args.content.split("\n").length - (args.content.endsWith("\n") ? 1 : 0);
      return ok(`${done.existed ? "Overwrote" : "Created"} ${shown} (${lines} lines).`);
    } catch (err) {
      return fail(`Cannot write ${shown}: ${errorMessage(err)}`);
    }
  },
};

function lineCount(content: string): number {
  return content === "" ? 0 : content.replace(/\n$/, "").split("\n").length;
}
