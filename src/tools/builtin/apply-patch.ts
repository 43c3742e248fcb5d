// apply_patch {input}: Codex's patch format (R-EDIT-1), offered instead of edit_file/edit_lineno
// to models trained on it (config/edit-tool.ts). Every section is worked out in memory first —
// later sections see earlier ones — and the files are written all or none (patch-commit.ts), so
// a chunk that does not fit changes nothing anywhere. The context lines verify the file, so no
// read in this turn is needed.
import * as z from "zod/mini";
import { lazySchema } from "../lazy-schema.js";
import { displayPath, resolvePath } from "../paths.js";
import { errorMessage, fail, ok } from "../results.js";
import type { Tool } from "../types.js";
import { ChunkError, applyChunks } from "./patch-apply.js";
import { type FileChange, commitChanges } from "./patch-commit.js";
import { type Hunk, parsePatch, patchPaths } from "./patch-parse.js";
import { presentPatch } from "./patch-present.js";
import { NotRegularFileError, readRegularFile } from "./safe-read.js";

const READ_MAX_BYTES = 32 * 1024 * 1024;

const schema = lazySchema(() =>
  z.object({
    input: z.string().check(z.describe("The entire contents of the apply_patch command")),
  }),
);
type Args = z.infer<ReturnType<typeof schema>>;

// In the words of Codex's own instructions to models (codex-rs/apply-patch/apply_patch_tool_instructions.md).
const DESCRIPTION = `Edit files with a patch. The patch language is a stripped-down, file-oriented diff format:

*** Begin Patch
[ one or more file sections ]
*** End Patch

Each section starts with one of three headers:
*** Add File: <path> - create a file; every following line is a + line (its contents).
*** Delete File: <path> - remove an existing file; nothing follows.
*** Update File: <path> - patch an existing file, optionally followed by *** Move to: <new path> to rename it.

An update has one or more hunks, each introduced by @@ (optionally followed by a line such as a class or function header that comes before the change). Within a hunk every line starts with ' ' (context), '-' (removed) or '+' (added). Show 3 lines of context above and below each change; when that is not unique, name the enclosing class or function with @@ (several @@ lines narrow it step by step). End a hunk that touches the end of the file with *** End of File.

Example:
*** Begin Patch
*** Add File: hello.txt
+Hello world
*** Update File: src/app.py
*** Move to: src/main.py
@@ def greet():
-print("Hi")
+print("Hello, world!")
*** Delete File: obsolete.txt
*** End Patch

Paths are relative to the workspace. The whole patch applies or nothing does; no read_file is needed first.`;

class SectionError extends Error {}

/** The current text of a path as earlier sections left it (`null`: not there). */
type Files = Map<string, string | null>;

function current(files: Files, abs: string, shown: string, action: string): string {
  if (files.has(abs)) {
    const text = files.get(abs);
    if (text === null || text === undefined) throw new SectionError(`${action} ${shown}: no such file`);
    return text;
  }
  try {
    const text = readRegularFile(abs, READ_MAX_BYTES).data.toString("utf8");
    files.set(abs, text);
    return text;
  } catch (err) {
    if (err instanceof NotRegularFileError) throw new SectionError(`${action} ${shown}: it ${err.message}`);
    if ((err as NodeJS.ErrnoException).code === "ENOENT")
      throw new SectionError(`${action} ${shown}: no such file`);
    throw new SectionError(`${action} ${shown}: ${errorMessage(err)}`);
  }
}

interface Planned {
  changes: FileChange[];
  summary: string[];
  relaxed: string[];
}

function plan(hunks: readonly Hunk[], cwd: string): Planned {
  const files: Files = new Map();
  const shownOf = new Map<string, string>();
  const added: string[] = [];
  const modified: string[] = [];
  const deleted: string[] = [];
  const relaxed: string[] = [];
  const at = (path: string) => {
    const abs = resolvePath(cwd, path);
    shownOf.set(abs, displayPath(cwd, abs));
    return abs;
  };
  hunks.forEach((h, n) => {
    const abs = at(h.path);
    const shown = shownOf.get(abs)!;
    const where = `section ${n + 1} (${h.type === "add" ? "Add" : h.type === "delete" ? "Delete" : "Update"} File: ${h.path})`;
    try {
      if (h.type === "add") {
        files.set(abs, h.contents);
        added.push(h.path);
      } else if (h.type === "delete") {
        current(files, abs, shown, "Failed to delete file");
        files.set(abs, null);
        deleted.push(h.path);
      } else {
        const before = current(files, abs, shown, "Failed to read file to update");
        const { text, passes } = applyChunks(before, h.chunks);
        const loose = [...new Set(passes.filter((p) => p !== "exact"))];
        if (loose.length) relaxed.push(`${h.path} (${loose.join(", ")} ignored)`);
        if (h.movePath !== undefined && at(h.movePath) !== abs) {
          files.set(at(h.movePath), text);
          files.set(abs, null);
          modified.push(h.movePath);
        } else {
          files.set(abs, text);
          modified.push(h.path);
        }
      }
    } catch (err) {
      if (err instanceof ChunkError)
        throw new SectionError(`${where}, hunk ${err.chunk}: ${err.message.replace(/^Failed/, "failed")}`);
      throw new SectionError(`${where}: ${errorMessage(err)}`);
    }
  });
  const changes = [...files].map(([abs, next]) => ({ abs, shown: shownOf.get(abs)!, next }));
  const summary = [
    ...added.map((p) => `A ${p}`),
    ...modified.map((p) => `M ${p}`),
    ...deleted.map((p) => `D ${p}`),
  ];
  return { changes, summary, relaxed };
}

export const applyPatchTool: Tool<Args> = {
  name: "apply_patch",
  description: DESCRIPTION,
  get schema() {
    return schema();
  },
  kind: "edit",
  // A patch that cannot be read names no files: the error reaches the model before any approval.
  paths: (args) => patchPaths(parsePatch(args.input)),
  present: presentPatch,
  async run(args, ctx) {
    let hunks: Hunk[];
    try {
      hunks = parsePatch(args.input);
    } catch (err) {
      return fail(`apply_patch: ${errorMessage(err)}`);
    }
    if (hunks.length === 0)
      return fail("apply_patch: No files were modified (the patch has no file sections).");
    let planned: Planned;
    try {
      planned = plan(hunks, ctx.cwd);
    } catch (err) {
      return fail(`apply_patch: nothing was changed. ${errorMessage(err)}`);
    }
    const refused = await commitChanges(planned.changes, ctx);
    if (refused) return refused;
    const note = planned.relaxed.length ? `\nMatched loosely: ${planned.relaxed.join("; ")}.` : "";
    return ok(`Success. Updated the following files:\n${planned.summary.join("\n")}${note}`);
  },
};
