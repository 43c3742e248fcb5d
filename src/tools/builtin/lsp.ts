// lsp: what the session's language servers know (R-LSP-3): diagnostics of a file or of every open
// file, definition, references, hover, a file's symbols, workspace symbols. Read-only, so it runs
// unasked in every mode, plan included; positions are 1-based like read_file's line numbers.
import * as z from "zod/mini";
import { lazySchema, saidInDescription } from "../lazy-schema.js";
import { resolvePath } from "../paths.js";
import { errorMessage, fail, ok } from "../results.js";
import { located, text } from "../present.js";
import type { Tool } from "../types.js";
// Named once in vocab/: the language servers answer the same list.
import { LSP_OPERATIONS as OPERATIONS } from "../../vocab/lsp-operations.js";

const AT_POSITION = new Set(["definition", "references", "hover"]);

// Few words: every tool's definition goes out with every request (bench row `request size`).
const schema = lazySchema(() =>
  z.object({
    operation: z.enum(OPERATIONS).check(saidInDescription()),
    path: z.optional(z.string()),
    line: z.optional(z.int().check(z.minimum(1))),
    character: z.optional(z.int().check(z.minimum(1))),
    query: z.optional(z.string()),
  }),
);
type Args = z.infer<ReturnType<typeof schema>>;

export const lspTool: Tool<Args> = {
  name: "lsp",
  description:
    "Language server: diagnostics (path, or all open files); definition, references, hover (path, " +
    "1-based line and character); symbols (path); workspace_symbols (query).",
  get schema() {
    return schema();
  },
  kind: "read",
  paths: (args) => (args.path ? [args.path] : []),
  present: (args) => ({
    title: `${text(args.operation)}${args.path ? ` ${text(args.path)}${args.line ? `:${text(args.line)}` : ""}` : ""}${args.query ? ` ${text(args.query)}` : ""}`,
    kind: "search",
    locations: located(args.path, args.line),
  }),
  async run(args, ctx) {
    if (!ctx.codeIntel) return fail("No language servers in this session (lsp is off in the configuration).");
    if (AT_POSITION.has(args.operation) && (!args.path || !args.line || !args.character))
      return fail(`${args.operation} needs path, line and character (1-based).`);
    if (args.operation === "symbols" && !args.path) return fail("symbols needs a path.");
    try {
      const answer = await ctx.codeIntel.query(
        { ...args, path: args.path === undefined ? undefined : resolvePath(ctx.cwd, args.path) },
        ctx.signal,
      );
      return answer.ok ? ok(answer.text) : fail(answer.text);
    } catch (err) {
      return fail(`lsp ${args.operation} failed: ${errorMessage(err)}`);
    }
  },
};
