// grep: a JavaScript regex over the files under a folder, ignore-aware, capped output. ripgrep
// searches when it is on the PATH and reads the pattern the same way (regex-translate.ts); the
// built-in workers search otherwise. Either way the same lines come out, in path order.
import { stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import * as z from "zod/mini";
import { lazySchema } from "../lazy-schema.js";
import { displayPath, isInside, resolvePath } from "../paths.js";
import { clip, errorMessage, fail, ok } from "../results.js";
import { located, text } from "../present.js";
import type { Tool } from "../types.js";
import { LISTING_TIMEOUT_MS, type Listing, listRelative, planGlob, ripgrepFor } from "./file-walk.js";
import { ripgrepSearch } from "./grep-ripgrep.js";
import { searchFiles } from "./grep-search.js";
import { displayPathsFrom, underDir } from "./listed-paths.js";
import { readPattern } from "./regex-translate.js";
import { fileKind } from "./safe-read.js";

const MAX_MATCHES = 200;
const MAX_LINE_CHARS = 300;
const MAX_FILE_BYTES = 10 * 1024 * 1024;

const schema = lazySchema(() =>
  z.object({
    pattern: z.string(),
    path: z.optional(z.string()),
    glob: z.optional(z.string()),
  }),
);
type Args = z.infer<ReturnType<typeof schema>>;

interface Found {
  matches: { path: string; line: number; text: string }[];
  total: number;
}

function report(args: Args, cwd: string, base: string, found: Found): ReturnType<typeof ok> {
  const shown = clip(JSON.stringify(args.pattern), 200);
  if (found.total === 0) return ok(`No matches for ${shown} in ${displayPath(cwd, base)}.`);
  const shownPath = displayPathsFrom(cwd);
  const out = found.matches.map((m) => `${shownPath(m.path)}:${m.line}:${m.text}`);
  if (found.total > out.length)
    out.push(`… [${found.total - out.length} more matches not shown; narrow the pattern, path or glob]`);
  return ok(out.join("\n"));
}

const timedOut = (pattern: string) =>
  fail(
    `grep stopped after ${LISTING_TIMEOUT_MS / 1000}s without finishing: the pattern ${clip(JSON.stringify(pattern), 200)} ` +
      "may backtrack catastrophically (nested quantifiers such as (a+)+), or the search is too wide; simplify the pattern or narrow path/glob.",
  );

/**
 * Searches that ran out of time, by workspace, path, glob and pattern, with when: the same search
 * again within RUNAWAY_MEMORY_MS fails at once, so a model retrying a runaway pattern does not
 * hold its turn another 10 s each time (R-BIG-1).
 */
const runaways = new Map<string, number>();
const RUNAWAY_MEMORY_MS = 10 * 60_000;

function ranAway(key: string): number | undefined {
  const at = runaways.get(key);
  if (at === undefined || performance.now() - at > RUNAWAY_MEMORY_MS) return undefined;
  return at;
}

function rememberRunaway(key: string): void {
  runaways.delete(key);
  runaways.set(key, performance.now());
  // The oldest go first: a bounded memory.
  for (const old of runaways.keys()) if (runaways.size > 100) runaways.delete(old);
}

export const grepTool: Tool<Args> = {
  name: "grep",
  description:
    "Search files for a JavaScript regex (path: file or folder; glob: e.g. **/*.ts): " +
    `path:line:text, at most ${MAX_MATCHES}. Skips gitignored, binary, .git, node_modules.`,
  get schema() {
    return schema();
  },
  kind: "read",
  paths: (args) => [args.path ?? "."],
  present: (args) => ({
    title: `${text(args.pattern)}${args.path ? ` in ${text(args.path)}` : ""}${args.glob ? ` (${text(args.glob)})` : ""}`,
    kind: "search",
    locations: located(args.path),
  }),
  async run(args, ctx) {
    try {
      // Checked here for a clear error; the search compiles it again where it runs.
      new RegExp(args.pattern);
    } catch (err) {
      return fail(
        `Invalid regex ${clip(JSON.stringify(args.pattern), 200)}: ${clip(errorMessage(err), 300)}`,
      );
    }
    const key = [ctx.cwd, args.path ?? ".", args.glob ?? "", args.pattern].join("\0");
    const before = ranAway(key);
    if (before !== undefined)
      return fail(
        `grep not run: the same search stopped after ${LISTING_TIMEOUT_MS / 1000}s without finishing ` +
          `${Math.round((performance.now() - before) / 1000)}s ago; simplify the pattern ${clip(JSON.stringify(args.pattern), 200)} or narrow path/glob.`,
      );
    const stopped = () => {
      rememberRunaway(key);
      return timedOut(args.pattern);
    };
    const deadline = performance.now() + LISTING_TIMEOUT_MS;
    const base = resolvePath(ctx.cwd, args.path ?? ".");
    const readings = readPattern(args.pattern);
    let listing: Listing;
    try {
      const st = await stat(base);
      if (st.isDirectory()) {
        const plan = planGlob(base, args.glob ?? "**/*");
        const root = isInside(ctx.cwd, plan.dir) ? ctx.cwd : plan.dir;
        // ripgrep cannot be told to leave TERN_HOME out: a search that holds it uses the built-in walk.
        // Nor which files a read deny rule covers (R-WF-5): then the built-in walk, filtered below.
        const holdsHidden = (ctx.hidden?.some((h) => isInside(plan.dir, h)) ?? false) || !!ctx.readDenied;
        const rg = readings && !holdsHidden && ripgrepFor(root, plan.dir);
        if (rg) {
          const found = await ripgrepSearch({
            rg,
            rust: readings.rust,
            plan,
            maxMatches: MAX_MATCHES,
            maxLineChars: MAX_LINE_CHARS,
            maxFileBytes: MAX_FILE_BYTES,
            deadline,
            signal: ctx.signal,
          });
          if (found.kind === "cancelled") return fail("cancelled");
          if (found.kind === "timeout") return stopped();
          if (found.kind === "done") return report(args, ctx.cwd, base, found);
          // ripgrep refused the pattern or failed: the built-in search answers.
        }
        listing = await listRelative(base, args.glob ?? "**/*", ctx.cwd, {
          signal: ctx.signal,
          timeoutMs: deadline - performance.now(),
          hidden: ctx.hidden,
        });
        if (ctx.readDenied) {
          const dir = listing.dir;
          listing = { ...listing, rels: listing.rels.filter((rel) => !ctx.readDenied?.(join(dir, rel))) };
        }
      } else if (st.isFile()) listing = { dir: dirname(base), rels: [basename(base)], total: 1 };
      else return fail(`${displayPath(ctx.cwd, base)} is ${fileKind(st)}; grep searches regular files only.`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT")
        return fail(`Path not found: ${displayPath(ctx.cwd, base)}`);
      if ((err as Error).name === "ListingStopped" && (err as { why?: string }).why === "timeout")
        return stopped();
      return fail(`Cannot search ${displayPath(ctx.cwd, base)}: ${errorMessage(err)}`);
    }
    const outcome = await searchFiles(
      {
        pattern: args.pattern,
        lineJs: readings?.lineJs,
        literals: readings?.literals,
        dir: listing.dir,
        files: listing.rels,
        maxMatches: MAX_MATCHES,
        maxLineChars: MAX_LINE_CHARS,
        maxFileBytes: MAX_FILE_BYTES,
      },
      Math.max(0, deadline - performance.now()),
      ctx.signal,
    );
    if (outcome.kind === "cancelled") return fail("cancelled");
    if (outcome.kind === "timeout") return stopped();
    if (outcome.kind === "failed") return fail(`grep failed: ${outcome.message}`);
    const pathOf = underDir(listing.dir);
    const matches = outcome.matches.map((m) => ({
      path: pathOf(listing.rels[m.file]),
      line: m.line,
      text: m.text,
    }));
    return report(args, ctx.cwd, base, { matches, total: outcome.total });
  },
};
