// R-EDIT-4 on other agents' edit cases (test/support/peer-edit-cases.ts, ported from opencode and
// aider), run through the real edit_file tool on real files: every case lands exactly where the
// case says, or is refused and leaves the file as it was; none lands anywhere else. The same
// cases on CRLF files (R-EDIT-2) give the same files in CRLF.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { editFileTool } from "../../src/tools/builtin/edit-file.js";
import { readFileTool } from "../../src/tools/builtin/read-file.js";
import { PEER_EDIT_CASES } from "../support/peer-edit-cases.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { makeCtx, textOf } from "./helpers.js";

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

async function edit(content: string, find: string, replace: string, all?: boolean) {
  const file = join(dirs.workspace, "case.txt");
  writeFileSync(file, content);
  const ctx = makeCtx(dirs.workspace);
  await readFileTool.run({ path: "case.txt" }, ctx);
  const args = {
    path: "case.txt",
    old_string: find,
    new_string: replace,
    ...(all ? { replace_all: true } : {}),
  };
  const result = await editFileTool.run(args, ctx);
  return { result, after: readFileSync(file, "utf8") };
}

const crlf = (s: string) => s.replace(/\n/g, "\r\n");

describe("peer edit cases (R-EDIT-4)", () => {
  for (const c of PEER_EDIT_CASES) {
    it(`${c.source}: ${c.expect === null ? "refused" : "lands"}`, async () => {
      const { result, after } = await edit(c.content, c.find, c.replace, c.all);
      if (c.expect === null) {
        expect(result.outcome, textOf(result)).toBe("error");
        expect(after).toBe(c.content);
      } else {
        expect(result.outcome, textOf(result)).toBe("ok");
        expect(after).toBe(c.expect);
      }
    });
  }

  for (const c of PEER_EDIT_CASES.filter((x) => x.expect !== null && x.content.includes("\n"))) {
    it(`${c.source} on a CRLF file keeps CRLF`, async () => {
      const { result, after } = await edit(crlf(c.content), c.find, c.replace, c.all);
      expect(result.outcome, textOf(result)).toBe("ok");
      expect(after).toBe(crlf(c.expect!));
    });
  }

  it("says which relaxation it used, and lists the lines of several candidates", async () => {
    const shifted = await edit(
      "class A {\n    def f():\n        return 1\n",
      "def f():\n    return 1",
      "def f():\n    return 2",
    );
    expect(textOf(shifted.result)).toBe(
      "Edited case.txt: replaced 1 occurrence (matched with indentation shifted).",
    );
    expect(shifted.after).toBe("class A {\n    def f():\n        return 2\n");
    const trailing = await edit("a = 1   \nb = 2\t\n", "a = 1\nb = 2\n", "a = 3\nb = 4\n");
    expect(textOf(trailing.result)).toContain("(matched with trailing whitespace ignored)");
    expect(trailing.after).toBe("a = 3\nb = 4\n");
    const two = await edit("if x:\n    go()\nif y:\n  go()\n", "go()\nstop()", "x");
    expect(two.result.outcome).toBe("error");
    const many = await edit("  f(1)\n  g()\n\n    f(1)\n    g()\n", "f(1)\ng()", "h()");
    expect(textOf(many.result)).toBe(
      "old_string not found exactly in case.txt; with indentation shifted it fits 2 places (lines 1, 4). " +
        "Add surrounding lines to make it unique.",
    );
    expect(many.after).toBe("  f(1)\n  g()\n\n    f(1)\n    g()\n");
  });
});
