// grep: a JavaScript regex over the files under a folder, gitignore-aware, capped output.
import { readFile, stat } from "node:fs/promises";
import { z } from "zod";
import { displayPath, resolvePath } from "../paths.js";
import { errorMessage, fail, ok } from "../results.js";
import type { Tool } from "../types.js";
import { listFiles } from "./file-walk.js";
import { looksBinary } from "./read-file.js";

const MAX_MATCHES = 200;
const MAX_LINE_CHARS = 300;
const MAX_FILE_BYTES = 10 * 1024 * 1024;

const schema = z.object({
  pattern: z.string().describe("JavaScript regular expression"),
  path: z.string().optional().describe("File or folder to search (default: workspace)"),
  glob: z.string().optional().describe("Only files matching this glob, e.g. **/*.ts"),
});
type Args = z.infer<typeof schema>;

export const grepTool: Tool<Args> = {
  name: "grep",
  description:
    "Search file contents with a JavaScript regex. Output lines are path:line:text. Skips .gitignored, " +
    "binary, .git and node_modules files.",
  schema,
  kind: "read",
  paths: (args) => [args.path ?? "."],
  async run(args, ctx) {
    let re: RegExp;
    try {
      re = new RegExp(args.pattern);
    } catch (err) {
      return fail(`Invalid regex ${JSON.stringify(args.pattern)}: ${errorMessage(err)}`);
    }
    const base = resolvePath(ctx.cwd, args.path ?? ".");
    let files: string[];
    try {
      const st = await stat(base);
      files = st.isDirectory() ? await listFiles(base, args.glob ?? "**/*", ctx.cwd) : [base];
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT")
        return fail(`Path not found: ${displayPath(ctx.cwd, base)}`);
      return fail(`Cannot search ${displayPath(ctx.cwd, base)}: ${errorMessage(err)}`);
    }
    const out: string[] = [];
    let total = 0;
    for (const file of files) {
      if (ctx.signal.aborted) return fail("cancelled");
      let buf: Buffer;
      try {
        if ((await stat(file)).size > MAX_FILE_BYTES) continue;
        buf = await readFile(file);
      } catch {
        continue;
      }
      if (looksBinary(buf)) continue;
      const lines = buf.toString("utf8").split(/\r?\n/);
      const shown = displayPath(ctx.cwd, file);
      for (let i = 0; i < lines.length; i++) {
        if (!re.test(lines[i])) continue;
        total++;
        if (out.length < MAX_MATCHES) {
          const line = lines[i].length > MAX_LINE_CHARS ? `${lines[i].slice(0, MAX_LINE_CHARS)}…` : lines[i];
          out.push(`${shown}:${i + 1}:${line}`);
        }
      }
    }
    if (total === 0) return ok(`No matches for ${JSON.stringify(args.pattern)} in ${files.length} files.`);
    if (total > out.length)
      out.push(`… [${total - out.length} more matches not shown; narrow the pattern, path or glob]`);
    return ok(out.join("\n"));
  },
};
