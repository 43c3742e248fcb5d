// apply_patch is judged like write_file/edit_file (R-EDIT-1): rules about those tools judge it,
// every file of the patch is judged on what was opened (a refused file refuses the whole patch,
// nothing written, nothing created), a `.git/` path or a path outside the workspace asks, a
// symlink is judged as one, and its paths name every file the patch touches.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { matcherMatches, namesOf } from "../../src/hooks/match.js";
import { applyPatchTool } from "../../src/tools/builtin/apply-patch.js";
import { ApprovalPolicy, type ApprovalCall } from "../../src/tools/policy/approval.js";
import type { WriteTarget } from "../../src/tools/types.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { makeCtx, textOf } from "./helpers.js";

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

const PATCH = [
  "*** Begin Patch",
  "*** Update File: a.txt",
  "@@",
  "-one",
  "+ONE",
  "*** Add File: new/b.txt",
  "+bee",
  "*** Update File: c.txt",
  "*** Move to: moved/c.txt",
  "@@",
  "-sea",
  "+SEA",
  "*** End Patch",
].join("\n");

const patchCall = (input: string): ApprovalCall => ({
  name: "apply_patch",
  args: { input },
  kind: "edit",
  paths: applyPatchTool.paths({ input }, dirs.workspace),
});

describe("apply_patch judged like an edit (R-EDIT-1)", () => {
  it("names every file it touches, move targets included", () => {
    expect(applyPatchTool.paths({ input: PATCH }, dirs.workspace)).toEqual([
      "a.txt",
      "new/b.txt",
      "c.txt",
      "moved/c.txt",
    ]);
    expect(() =>
      applyPatchTool.paths({ input: "*** Begin Patch\nbad\n*** End Patch" }, dirs.workspace),
    ).toThrow("'bad' is not a valid hunk header");
  });

  it("a refused file refuses the whole patch: nothing written, nothing created", async () => {
    writeFileSync(join(dirs.workspace, "a.txt"), "one\n");
    writeFileSync(join(dirs.workspace, "c.txt"), "sea\n");
    const judged: string[] = [];
    const ctx = makeCtx(dirs.workspace, {
      admitWrite: async (t: WriteTarget) => {
        judged.push(t.path.slice(dirs.workspace.length + 1));
        return t.path.endsWith("moved/c.txt") ? "denied by rule write_file(moved/**)" : null;
      },
    });
    const r = await applyPatchTool.run({ input: PATCH }, ctx);
    expect(r.outcome).toBe("denied");
    expect(textOf(r)).toBe("denied by rule write_file(moved/**) Nothing in the patch was applied.");
    expect(judged).toEqual(["a.txt", "new/b.txt", "c.txt", "moved/c.txt"]);
    expect(readFileSync(join(dirs.workspace, "a.txt"), "utf8")).toBe("one\n");
    expect(readFileSync(join(dirs.workspace, "c.txt"), "utf8")).toBe("sea\n");
    expect(existsSync(join(dirs.workspace, "new"))).toBe(false);
    expect(existsSync(join(dirs.workspace, "moved"))).toBe(false);
  });

  it("writes through a symlink only as what it is, judged with symlink set", async () => {
    mkdirSync(join(dirs.root, "outside"));
    writeFileSync(join(dirs.root, "outside", "t.txt"), "one\n");
    symlinkSync(join(dirs.root, "outside", "t.txt"), join(dirs.workspace, "link.txt"));
    const seen: WriteTarget[] = [];
    const ctx = makeCtx(dirs.workspace, {
      admitWrite: async (t: WriteTarget) => {
        seen.push(t);
        return "asks: a symlink to a file outside the workspace";
      },
    });
    const patch = "*** Begin Patch\n*** Update File: link.txt\n@@\n-one\n+two\n*** End Patch";
    const r = await applyPatchTool.run({ input: patch }, ctx);
    expect(r.outcome).toBe("denied");
    expect(seen[0]).toMatchObject({ symlink: true, real: join(dirs.root, "outside", "t.txt") });
    expect(readFileSync(join(dirs.root, "outside", "t.txt"), "utf8")).toBe("one\n");
  });

  it("rules about edit_file and write_file judge apply_patch; protected and outside paths ask", () => {
    const policy = (mode: "ask" | "auto-edit" | "yolo", allow: string[] = [], deny: string[] = []) =>
      new ApprovalPolicy({ mode, allow, deny, cwd: dirs.workspace });
    const inSrc = "*** Begin Patch\n*** Add File: src/x.ts\n+x\n*** End Patch";
    const secret = "*** Begin Patch\n*** Add File: secret/k.txt\n+x\n*** End Patch";
    expect(policy("ask", ["edit_file(src/**)"]).evaluate(patchCall(inSrc)).decision).toBe("allow");
    expect(policy("yolo", [], ["write_file(secret/**)"]).evaluate(patchCall(secret)).decision).toBe("deny");
    expect(policy("ask").evaluate(patchCall(inSrc)).decision).toBe("ask");
    expect(policy("auto-edit").evaluate(patchCall(inSrc)).decision).toBe("allow");
    const git = "*** Begin Patch\n*** Add File: .git/hooks/post-commit\n+x\n*** End Patch";
    expect(policy("auto-edit").evaluate(patchCall(git)).decision).toBe("ask");
    const outside = `*** Begin Patch\n*** Add File: ${join(dirs.root, "elsewhere.txt")}\n+x\n*** End Patch`;
    expect(policy("auto-edit").evaluate(patchCall(outside)).decision).toBe("ask");
  });
});

describe("apply_patch presented as one diff (R-EDIT-1)", () => {
  it("shows every file's section, header lines shared, old lines before and new lines after", () => {
    const shown = applyPatchTool.present!({ input: PATCH });
    expect(shown.title).toBe("a.txt, new/b.txt, moved/c.txt");
    expect(shown.locations).toEqual([
      { path: "a.txt" },
      { path: "new/b.txt" },
      { path: "c.txt" },
      { path: "moved/c.txt" },
    ]);
    expect(shown.preview).toEqual({
      type: "diff",
      before:
        "*** Update File: a.txt\none\n*** Add File: new/b.txt\n*** Update File: c.txt → moved/c.txt\nsea",
      after:
        "*** Update File: a.txt\nONE\n*** Add File: new/b.txt\nbee\n*** Update File: c.txt → moved/c.txt\nSEA",
    });
    expect(applyPatchTool.present!({ input: "not a patch" })).toMatchObject({
      title: "patch (not readable)",
    });
  });
});

describe("hooks see apply_patch under Claude's names (R-EDIT-1)", () => {
  it("an Edit or Write matcher fires on apply_patch, a Bash one does not", () => {
    expect(matcherMatches("Edit", "apply_patch", namesOf("apply_patch"))).toBe(true);
    expect(matcherMatches("Write", "apply_patch", namesOf("apply_patch"))).toBe(true);
    expect(matcherMatches("Bash", "apply_patch", namesOf("apply_patch"))).toBe(false);
  });
});
