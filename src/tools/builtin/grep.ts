// grep: a JavaScript regex over the files under a folder, gitignore-aware, capped output.
import { stat } from "node:fs/promises";
import * as z from "zod/mini";
import { lazySchema } from "../lazy-schema.js";
import { displayPath, resolvePath } from "../paths.js";
import { clip, errorMessage, fail, ok } from "../results.js";
import type { Tool } from "../types.js";
import { listFiles } from "./file-walk.js";
import { searchFiles } from "./grep-search.js";
import { fileKind } from "./safe-read.js";

const MAX_MATCHES = 200;
const MAX_LINE_CHARS = 300;
const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** A search that takes longer is a runaway pattern or far too wide a search (R-TOOL-6). */
const SEARCH_TIMEOUT_MS = 20_000;

const schema = lazySchema(() =>
  z.object({
    pattern: z.string().check(z.describe("JavaScript regular expression")),
    path: z.optional(z.string()).check(z.describe("File or folder to search (default: workspace)")),
    glob: z.optional(z.string()).check(z.describe("Only files matching this glob, e.g. **/*.ts")),
  }),
);
type Args = z.infer<ReturnType<typeof schema>>;

export const grepTool: Tool<Args> = {
  name: "grep",
  description:
    "Search file contents with a JavaScript regex. Output lines are path:line:text. Skips .gitignored, " +
    "binary, .git and node_modules files.",
  get schema() {
    return schema();
  },
  kind: "read",
  paths: (args) => [args.path ?? "."],
  async run(args, ctx) {
    try {
      // Checked here for a clear error; the search itself compiles it again in its worker.
      new RegExp(args.pattern);
    } catch (err) {
      return fail(
        `Invalid regex ${clip(JSON.stringify(args.pattern), 200)}: ${clip(errorMessage(err), 300)}`,
      );
    }
    const base = resolvePath(ctx.cwd, args.path ?? ".");
    let files: string[];
    try {
      const st = await stat(base);
      if (st.isDirectory())
        files = await listFiles(base, args.glob ?? "**/*", ctx.cwd, { signal: ctx.signal });
      else if (st.isFile()) files = [base];
      else return fail(`${displayPath(ctx.cwd, base)} is ${fileKind(st)}; grep searches regular files only.`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT")
        return fail(`Path not found: ${displayPath(ctx.cwd, base)}`);
      return fail(`Cannot search ${displayPath(ctx.cwd, base)}: ${errorMessage(err)}`);
    }
    const outcome = await searchFiles(
      {
        pattern: args.pattern,
        files,
        maxMatches: MAX_MATCHES,
        maxLineChars: MAX_LINE_CHARS,
        maxFileBytes: MAX_FILE_BYTES,
      },
      SEARCH_TIMEOUT_MS,
      ctx.signal,
    );
    if (outcome.kind === "cancelled") return fail("cancelled");
    if (outcome.kind === "timeout") {
      return fail(
        `grep stopped after ${SEARCH_TIMEOUT_MS / 1000}s without finishing: the pattern ${clip(JSON.stringify(args.pattern), 200)} ` +
          "may backtrack catastrophically (nested quantifiers such as (a+)+), or the search is too wide; simplify the pattern or narrow path/glob.",
      );
    }
    if (outcome.kind === "failed") return fail(`grep failed: ${outcome.message}`);
    const { total } = outcome;
    const out = outcome.matches.map((m) => `${displayPath(ctx.cwd, files[m.file])}:${m.line}:${m.text}`);
    if (total === 0)
      return ok(`No matches for ${clip(JSON.stringify(args.pattern), 200)} in ${files.length} files.`);
    if (total > out.length)
      out.push(`… [${total - out.length} more matches not shown; narrow the pattern, path or glob]`);
    return ok(out.join("\n"));
  },
};
