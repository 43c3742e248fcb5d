// Codex's apply_patch scenarios, run through tern's real apply_patch tool on real temp folders
// and compared byte for byte (R-EDIT-1). Ported from openai/codex at commit
// 71163530a46dc568775f9ee95a9b57de3385cd9a, codex-rs/apply-patch/tests/fixtures/scenarios/
// (each case names its folder there: input/ tree, patch.txt, expected/ tree). Where Codex keeps
// part of a failed patch (015), tern keeps nothing: the expected tree is the input tree.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyPatchTool } from "../../src/tools/builtin/apply-patch.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { makeCtx, textOf } from "./helpers.js";

type Tree = Record<string, string>;

interface Scenario {
  name: string;
  input: Tree;
  /** Extra folders in the input (no files under them otherwise). */
  patch: string;
  expected: Tree;
  ok: boolean;
  /** Text the error must contain. */
  says?: string;
}

const SCENARIOS: Scenario[] = [
  {
    name: "001_add_file",
    input: {},
    patch: "*** Begin Patch\n*** Add File: bar.md\n+This is a new file\n*** End Patch\n",
    expected: { "bar.md": "This is a new file\n" },
    ok: true,
  },
  {
    name: "002_multiple_operations",
    input: { "delete.txt": "obsolete\n", "modify.txt": "line1\nline2\n" },
    patch:
      "*** Begin Patch\n*** Add File: nested/new.txt\n+created\n*** Delete File: delete.txt\n" +
      "*** Update File: modify.txt\n@@\n-line2\n+changed\n*** End Patch\n",
    expected: { "modify.txt": "line1\nchanged\n", "nested/new.txt": "created\n" },
    ok: true,
  },
  {
    name: "003_multiple_chunks",
    input: { "multi.txt": "line1\nline2\nline3\nline4\n" },
    patch:
      "*** Begin Patch\n*** Update File: multi.txt\n@@\n-line2\n+changed2\n@@\n-line4\n+changed4\n*** End Patch\n",
    expected: { "multi.txt": "line1\nchanged2\nline3\nchanged4\n" },
    ok: true,
  },
  {
    name: "004_move_to_new_directory",
    input: { "old/name.txt": "old content\n", "old/other.txt": "unrelated file\n" },
    patch:
      "*** Begin Patch\n*** Update File: old/name.txt\n*** Move to: renamed/dir/name.txt\n@@\n" +
      "-old content\n+new content\n*** End Patch\n",
    expected: { "old/other.txt": "unrelated file\n", "renamed/dir/name.txt": "new content\n" },
    ok: true,
  },
  {
    name: "005_rejects_empty_patch",
    input: { "foo.txt": "stable\n" },
    patch: "*** Begin Patch\n*** End Patch\n",
    expected: { "foo.txt": "stable\n" },
    ok: false,
    says: "No files were modified",
  },
  {
    name: "006_rejects_missing_context",
    input: { "modify.txt": "line1\nline2\n" },
    patch: "*** Begin Patch\n*** Update File: modify.txt\n@@\n-missing\n+changed\n*** End Patch\n",
    expected: { "modify.txt": "line1\nline2\n" },
    ok: false,
    says: "section 1 (Update File: modify.txt), hunk 1: failed to find expected lines:\nmissing",
  },
  {
    name: "007_rejects_missing_file_delete",
    input: { "foo.txt": "stable\n" },
    patch: "*** Begin Patch\n*** Delete File: missing.txt\n*** End Patch\n",
    expected: { "foo.txt": "stable\n" },
    ok: false,
    says: "Failed to delete file missing.txt",
  },
  {
    name: "008_rejects_empty_update_hunk",
    input: { "foo.txt": "stable\n" },
    patch: "*** Begin Patch\n*** Update File: foo.txt\n*** End Patch\n",
    expected: { "foo.txt": "stable\n" },
    ok: false,
    says: "Update file hunk for path 'foo.txt' is empty",
  },
  {
    name: "009_requires_existing_file_for_update",
    input: { "foo.txt": "stable\n" },
    patch: "*** Begin Patch\n*** Update File: missing.txt\n@@\n-old\n+new\n*** End Patch\n",
    expected: { "foo.txt": "stable\n" },
    ok: false,
    says: "Failed to read file to update missing.txt",
  },
  {
    name: "010_move_overwrites_existing_destination",
    input: { "old/name.txt": "from\n", "old/other.txt": "unrelated\n", "renamed/dir/name.txt": "existing\n" },
    patch:
      "*** Begin Patch\n*** Update File: old/name.txt\n*** Move to: renamed/dir/name.txt\n@@\n-from\n+new\n*** End Patch\n",
    expected: { "old/other.txt": "unrelated\n", "renamed/dir/name.txt": "new\n" },
    ok: true,
  },
  {
    name: "011_add_overwrites_existing_file",
    input: { "duplicate.txt": "old content\n" },
    patch: "*** Begin Patch\n*** Add File: duplicate.txt\n+new content\n*** End Patch\n",
    expected: { "duplicate.txt": "new content\n" },
    ok: true,
  },
  {
    name: "012_delete_directory_fails",
    input: { "dir/foo.txt": "stable\n" },
    patch: "*** Begin Patch\n*** Delete File: dir\n*** End Patch\n",
    expected: { "dir/foo.txt": "stable\n" },
    ok: false,
    says: "dir: it is a directory",
  },
  {
    name: "013_rejects_invalid_hunk_header",
    input: { "foo.txt": "stable\n" },
    patch: "*** Begin Patch\n*** Frobnicate File: foo\n*** End Patch\n",
    expected: { "foo.txt": "stable\n" },
    ok: false,
    says: "'*** Frobnicate File: foo' is not a valid hunk header",
  },
  {
    name: "014_update_file_appends_trailing_newline",
    input: { "no_newline.txt": "no newline at end" },
    patch:
      "*** Begin Patch\n*** Update File: no_newline.txt\n@@\n-no newline at end\n+first line\n+second line\n*** End Patch\n",
    expected: { "no_newline.txt": "first line\nsecond line\n" },
    ok: true,
  },
  {
    name: "015_failure_after_partial_success_leaves_changes (tern: all or none)",
    input: {},
    patch:
      "*** Begin Patch\n*** Add File: created.txt\n+hello\n*** Update File: missing.txt\n@@\n-old\n+new\n*** End Patch\n",
    expected: {},
    ok: false,
    says: "section 2 (Update File: missing.txt): Failed to read file to update missing.txt",
  },
  {
    name: "016_pure_addition_update_chunk",
    input: { "input.txt": "line1\nline2\n" },
    patch: "*** Begin Patch\n*** Update File: input.txt\n@@\n+added line 1\n+added line 2\n*** End Patch\n",
    expected: { "input.txt": "line1\nline2\nadded line 1\nadded line 2\n" },
    ok: true,
  },
  {
    name: "017_whitespace_padded_hunk_header",
    input: { "foo.txt": "old\n" },
    patch: "*** Begin Patch\n  *** Update File: foo.txt\n@@\n-old\n+new\n*** End Patch\n",
    expected: { "foo.txt": "new\n" },
    ok: true,
  },
  {
    name: "018_whitespace_padded_patch_markers",
    input: { "file.txt": "one\n" },
    patch: " *** Begin Patch\n*** Update File: file.txt\n@@\n-one\n+two\n*** End Patch \n",
    expected: { "file.txt": "two\n" },
    ok: true,
  },
  {
    name: "019_unicode_simple",
    input: { "foo.txt": "line1\nnaïve café\nline3\n" },
    patch:
      "*** Begin Patch\n*** Update File: foo.txt\n@@\n line1\n-naïve café\n+naïve café ✅\n*** End Patch \n",
    expected: { "foo.txt": "line1\nnaïve café ✅\nline3\n" },
    ok: true,
  },
  {
    name: "020_delete_file_success",
    input: { "keep.txt": "keep\n", "obsolete.txt": "obsolete\n" },
    patch: "*** Begin Patch\n*** Delete File: obsolete.txt\n*** End Patch\n",
    expected: { "keep.txt": "keep\n" },
    ok: true,
  },
  {
    name: "020_whitespace_padded_patch_marker_lines",
    input: { "file.txt": "one\n" },
    patch: "*** Begin Patch \n*** Update File: file.txt\n@@\n-one\n+two\n *** End Patch\n",
    expected: { "file.txt": "two\n" },
    ok: true,
  },
  {
    name: "021_update_file_deletion_only",
    input: { "lines.txt": "line1\nline2\nline3\n" },
    patch: "*** Begin Patch\n*** Update File: lines.txt\n@@\n line1\n-line2\n line3\n*** End Patch\n",
    expected: { "lines.txt": "line1\nline3\n" },
    ok: true,
  },
  {
    name: "022_update_file_end_of_file_marker",
    input: { "tail.txt": "first\nsecond\n" },
    patch:
      "*** Begin Patch\n*** Update File: tail.txt\n@@\n first\n-second\n+second updated\n*** End of File\n*** End Patch\n",
    expected: { "tail.txt": "first\nsecond updated\n" },
    ok: true,
  },
];

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

function writeTree(root: string, tree: Tree): void {
  for (const [path, content] of Object.entries(tree)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** Every file under root, with its bytes; empty folders are left out, as git would. */
function readTree(root: string): Tree {
  const out: Tree = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const abs = join(dir, name);
      if (statSync(abs).isDirectory()) walk(abs);
      else out[relative(root, abs)] = readFileSync(abs, "latin1");
    }
  };
  walk(root);
  return out;
}

const bytes = (tree: Tree): Tree =>
  Object.fromEntries(Object.entries(tree).map(([k, v]) => [k, Buffer.from(v, "utf8").toString("latin1")]));

describe("Codex's apply_patch scenarios (R-EDIT-1)", () => {
  for (const s of SCENARIOS) {
    it(s.name, async () => {
      writeTree(dirs.workspace, s.input);
      const result = await applyPatchTool.run({ input: s.patch }, makeCtx(dirs.workspace));
      expect(result.outcome, textOf(result)).toBe(s.ok ? "ok" : "error");
      if (s.says) expect(textOf(result)).toContain(s.says);
      expect(readTree(dirs.workspace)).toEqual(bytes(s.expected));
    });
  }

  it("a failed patch leaves no folder it would have made", async () => {
    const patch =
      "*** Begin Patch\n*** Add File: deep/er/new.txt\n+x\n*** Update File: gone.txt\n@@\n-a\n+b\n*** End Patch";
    const result = await applyPatchTool.run({ input: patch }, makeCtx(dirs.workspace));
    expect(result.outcome).toBe("error");
    expect(readdirSync(dirs.workspace)).toEqual([]);
  });
});
