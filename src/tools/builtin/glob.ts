// glob: lists files matching a glob pattern (picomatch), ignore-aware, sorted and capped.
import { stat } from "node:fs/promises";
import * as z from "zod/mini";
import { lazySchema } from "../lazy-schema.js";
import { join } from "node:path";
import { displayPath, resolvePath } from "../paths.js";
import { errorMessage, fail, ok } from "../results.js";
import { located, text } from "../present.js";
import type { Tool } from "../types.js";
import { listRelative } from "./file-walk.js";
import { displayPathsFrom, underDir } from "./listed-paths.js";

const MAX_FILES = 500;

const schema = lazySchema(() =>
  z.object({
    pattern: z.string(),
    path: z.optional(z.string()),
  }),
);
type Args = z.infer<ReturnType<typeof schema>>;

export const globTool: Tool<Args> = {
  name: "glob",
  description:
    `List files matching pattern (e.g. src/**/*.ts, relative to path), sorted, at most ${MAX_FILES}. ` +
    "Skips gitignored, .git, node_modules.",
  get schema() {
    return schema();
  },
  kind: "read",
  paths: (args) => [args.path ?? "."],
  present: (args) => ({
    title: `${text(args.pattern)}${args.path ? ` in ${text(args.path)}` : ""}`,
    kind: "search",
    locations: located(args.path),
  }),
  async run(args, ctx) {
    const base = resolvePath(ctx.cwd, args.path ?? ".");
    try {
      if (!(await stat(base)).isDirectory()) return fail(`${displayPath(ctx.cwd, base)} is not a folder.`);
      const { dir, rels, total } = await listRelative(base, args.pattern, ctx.cwd, {
        signal: ctx.signal,
        hidden: ctx.hidden,
        first: MAX_FILES,
      });
      // A file a read deny rule covers is not listed either (R-WF-5: Claude's Read rules cover Glob).
      const kept = ctx.readDenied ? rels.filter((rel) => !ctx.readDenied?.(join(dir, rel))) : rels;
      const count = total - (rels.length - kept.length);
      if (count === 0) return ok(`No files match ${JSON.stringify(args.pattern)}.`);
      const shown = displayPathsFrom(ctx.cwd);
      const lines = kept.map(underDir(dir)).map(shown);
      if (count > MAX_FILES) lines.push(`… [${count - MAX_FILES} more files; narrow the pattern]`);
      return ok(lines.join("\n"));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT")
        return fail(`Path not found: ${displayPath(ctx.cwd, base)}`);
      return fail(`glob failed: ${errorMessage(err)}`);
    }
  },
};
