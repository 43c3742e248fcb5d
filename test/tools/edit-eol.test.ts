// R-EDIT-2 and R-EDIT-3 through the real tools on real files: read_file shows text without `\r`
// or a BOM; edit_file, edit_lineno and apply_patch match `\n` text against `\r\n` lines, write new
// lines with the file's own ending, keep a BOM (which never stops a match at the start), and in
// a file of mixed endings leave every untouched line's ending as it was. edit_file's `edits`
// apply in order, all or none.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyPatchTool } from "../../src/tools/builtin/apply-patch.js";
import { editFileTool } from "../../src/tools/builtin/edit-file.js";
import { editLinenoTool } from "../../src/tools/builtin/edit-lineno.js";
import { readFileTool } from "../../src/tools/builtin/read-file.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { makeCtx, textOf } from "./helpers.js";

let dirs: TempDirs;
let file: string;
beforeEach(() => {
  dirs = makeTempDirs();
  file = join(dirs.workspace, "f.txt");
});
afterEach(() => dirs.cleanup());

const BOM = "\uFEFF";
const disk = () => readFileSync(file, "utf8");

async function readCtx(content: string) {
  writeFileSync(file, content);
  const ctx = makeCtx(dirs.workspace);
  const read = await readFileTool.run({ path: "f.txt" }, ctx);
  return { ctx, read: textOf(read) };
}

describe("line endings and BOM (R-EDIT-2)", () => {
  it("read_file shows a CRLF file with a BOM as plain lines", async () => {
    const { read } = await readCtx(`${BOM}one\r\ntwo\r\n`);
    expect(read).toBe("     1\tone\n     2\ttwo");
  });

  it("edit_file matches several lines copied from the read and writes CRLF", async () => {
    const { ctx } = await readCtx("a\r\nb\r\nc\r\n");
    const r = await editFileTool.run({ path: "f.txt", old_string: "a\nb\n", new_string: "A\nB1\nB2\n" }, ctx);
    expect(r.outcome, textOf(r)).toBe("ok");
    expect(disk()).toBe("A\r\nB1\r\nB2\r\nc\r\n");
  });

  it("new_string in CRLF on an LF file stays LF", async () => {
    const { ctx } = await readCtx("a\nb\n");
    await editFileTool.run({ path: "f.txt", old_string: "a\r\nb", new_string: "x\r\ny" }, ctx);
    expect(disk()).toBe("x\ny\n");
  });

  it("a BOM stays and does not stop a match at the file's start", async () => {
    const { ctx } = await readCtx(`${BOM}first\r\nsecond\r\n`);
    const r = await editFileTool.run({ path: "f.txt", old_string: "first\nsecond", new_string: "1st" }, ctx);
    expect(r.outcome, textOf(r)).toBe("ok");
    expect(disk()).toBe(`${BOM}1st\r\n`);
    const patch = "*** Begin Patch\n*** Update File: f.txt\n@@\n-1st\n+one\n+two\n*** End Patch";
    const p = await applyPatchTool.run({ input: patch }, ctx);
    expect(p.outcome, textOf(p)).toBe("ok");
    expect(disk()).toBe(`${BOM}one\r\ntwo\r\n`);
  });

  it("in a mixed file untouched lines keep their endings; new lines take the more common one", async () => {
    const { ctx } = await readCtx("a\r\nb\nc\r\nd\r\ne\n");
    await editFileTool.run({ path: "f.txt", old_string: "c\nd", new_string: "C\nD\nD2" }, ctx);
    expect(disk()).toBe("a\r\nb\nC\r\nD\r\nD2\r\ne\n");
    await editLinenoTool.run({ path: "f.txt", start_line: 2, end_line: 2, new_text: "B\nB2" }, ctx);
    expect(disk()).toBe("a\r\nB\r\nB2\r\nC\r\nD\r\nD2\r\ne\n");
  });

  it("apply_patch on a CRLF file keeps CRLF, also for a moved file and at the end of file", async () => {
    writeFileSync(file, "x\r\ny\r\nz");
    const patch =
      "*** Begin Patch\n*** Update File: f.txt\n*** Move to: g.txt\n@@\n y\n-z\n+Z\n+end\n*** End of File\n*** End Patch";
    const r = await applyPatchTool.run({ input: patch }, makeCtx(dirs.workspace));
    expect(r.outcome, textOf(r)).toBe("ok");
    expect(readFileSync(join(dirs.workspace, "g.txt"), "utf8")).toBe("x\r\ny\r\nZ\r\nend\r\n");
  });

  it("edit_lineno keeps a file without a final newline without one, and a BOM", async () => {
    const { ctx } = await readCtx(`${BOM}a\r\nb`);
    await editLinenoTool.run({ path: "f.txt", start_line: 2, end_line: 2, new_text: "B\nC" }, ctx);
    expect(disk()).toBe(`${BOM}a\r\nB\r\nC`);
  });
});

describe("several edits at once (R-EDIT-3)", () => {
  it("applies edits in order, each seeing the previous one's result", async () => {
    const { ctx } = await readCtx("alpha\nbeta\ngamma\n");
    const r = await editFileTool.run(
      {
        path: "f.txt",
        edits: [
          { old_string: "alpha", new_string: "ALPHA" },
          { old_string: "ALPHA\nbeta", new_string: "ALPHA\nBETA" },
          { old_string: "a", new_string: "4", replace_all: true },
        ],
      },
      ctx,
    );
    expect(textOf(r)).toBe(
      "Edited f.txt: 3 edits applied: 1) 1 occurrence; 2) 1 occurrence; 3) 2 occurrences.",
    );
    expect(disk()).toBe("ALPHA\nBETA\ng4mm4\n");
  });

  it("a failing edit applies none, naming it", async () => {
    const { ctx } = await readCtx("one\ntwo\n");
    const r = await editFileTool.run(
      {
        path: "f.txt",
        edits: [
          { old_string: "one", new_string: "1" },
          { old_string: "three", new_string: "3" },
        ],
      },
      ctx,
    );
    expect(r.outcome).toBe("error");
    expect(textOf(r)).toBe(
      "edit 2 of 2: old_string not found in f.txt (0 matches). Check whitespace and indentation, or read the file again. No edit was applied.",
    );
    expect(disk()).toBe("one\ntwo\n");
  });

  it("refuses edits together with old_string, and an empty list", async () => {
    const { ctx } = await readCtx("one\n");
    const both = await editFileTool.run(
      { path: "f.txt", old_string: "one", new_string: "1", edits: [{ old_string: "one", new_string: "1" }] },
      ctx,
    );
    expect(textOf(both)).toBe("Give either old_string/new_string or edits, not both.");
    const none = await editFileTool.run({ path: "f.txt", edits: [] }, ctx);
    expect(textOf(none)).toBe("edits is empty; nothing to change.");
    const neither = await editFileTool.run({ path: "f.txt" }, ctx);
    expect(neither.outcome).toBe("error");
    expect(disk()).toBe("one\n");
  });
});
