import { readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { editFileTool } from "../../src/tools/builtin/edit-file.js";
import { editLinenoTool } from "../../src/tools/builtin/edit-lineno.js";
import { readFileTool } from "../../src/tools/builtin/read-file.js";
import { writeFileTool } from "../../src/tools/builtin/write-file.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { makeCtx, textOf } from "./helpers.js";

let dirs: TempDirs;
let file: string;
beforeEach(() => {
  dirs = makeTempDirs();
  file = join(dirs.workspace, "f.txt");
  writeFileSync(file, "one\ntwo\nthree\n");
});
afterEach(() => dirs.cleanup());

describe("read-before-edit (R-TOOL-1)", () => {
  it("refuses edit_file, edit_lineno and an overwrite without a read in this turn", async () => {
    const ctx = makeCtx(dirs.workspace);
    const e1 = await editFileTool.run({ path: "f.txt", old_string: "two", new_string: "2" }, ctx);
    const e2 = await editLinenoTool.run({ path: "f.txt", start_line: 1, end_line: 1, new_text: "x" }, ctx);
    const e3 = await writeFileTool.run({ path: "f.txt", content: "new" }, ctx);
    for (const r of [e1, e2, e3]) {
      expect(r.outcome).toBe("error");
      expect(textOf(r)).toBe(
        `Read ${file} with read_file before editing it (edits need a read in this turn).`,
      );
    }
    expect(readFileSync(file, "utf8")).toBe("one\ntwo\nthree\n");
  });

  it("refuses an edit when the file changed on disk since the read", async () => {
    const ctx = makeCtx(dirs.workspace);
    await readFileTool.run({ path: "f.txt" }, ctx);
    writeFileSync(file, "one\ntwo\nchanged\n");
    const later = new Date(statSync(file).mtimeMs + 3000);
    utimesSync(file, later, later);
    const r = await editFileTool.run({ path: "f.txt", old_string: "two", new_string: "2" }, ctx);
    expect(r.outcome).toBe("error");
    expect(textOf(r)).toBe(`${file} changed on disk since you read it; read it again before editing.`);
  });

  it("a reset (new turn) forgets the read", async () => {
    const ctx = makeCtx(dirs.workspace);
    await readFileTool.run({ path: "f.txt" }, ctx);
    ctx.readTracker.reset();
    const r = await editFileTool.run({ path: "f.txt", old_string: "two", new_string: "2" }, ctx);
    expect(textOf(r)).toMatch(/before editing it/);
  });

  it("a file written in this turn counts as read, so it can be edited and edited again", async () => {
    const ctx = makeCtx(dirs.workspace);
    const w = await writeFileTool.run({ path: "new/dir/g.txt", content: "a\nb\n" }, ctx);
    expect(w.outcome).toBe("ok");
    expect(textOf(w)).toMatch(/Created new\/dir\/g.txt/);
    const e = await editFileTool.run({ path: "new/dir/g.txt", old_string: "b", new_string: "B" }, ctx);
    expect(e.outcome).toBe("ok");
    const e2 = await editLinenoTool.run(
      { path: "new/dir/g.txt", start_line: 1, end_line: 1, new_text: "A" },
      ctx,
    );
    expect(e2.outcome).toBe("ok");
    expect(readFileSync(join(dirs.workspace, "new/dir/g.txt"), "utf8")).toBe("A\nB\n");
  });
});

describe("edit_file", () => {
  it("says how many matches when not unique or absent, and replace_all replaces all", async () => {
    writeFileSync(file, "x = 1\nx = 1\n");
    const ctx = makeCtx(dirs.workspace);
    await readFileTool.run({ path: "f.txt" }, ctx);
    const many = await editFileTool.run({ path: "f.txt", old_string: "x = 1", new_string: "y" }, ctx);
    expect(textOf(many)).toMatch(/matches 2 times/);
    expect(textOf(many)).toMatch(/replace_all/);
    const none = await editFileTool.run({ path: "f.txt", old_string: "zzz", new_string: "y" }, ctx);
    expect(textOf(none)).toMatch(/0 matches/);
    const all = await editFileTool.run(
      { path: "f.txt", old_string: "x = 1", new_string: "y = $&", replace_all: true },
      ctx,
    );
    expect(all.outcome).toBe("ok");
    expect(readFileSync(file, "utf8")).toBe("y = $&\ny = $&\n");
  });

  it("replaces a unique match literally ($ patterns are not special)", async () => {
    const ctx = makeCtx(dirs.workspace);
    await readFileTool.run({ path: "f.txt" }, ctx);
    const r = await editFileTool.run({ path: "f.txt", old_string: "two\n", new_string: "$1 two\n" }, ctx);
    expect(r.outcome).toBe("ok");
    expect(readFileSync(file, "utf8")).toBe("one\n$1 two\nthree\n");
  });
});

describe("edit_lineno", () => {
  it("replaces, inserts and deletes line ranges (1-based, inclusive)", async () => {
    const ctx = makeCtx(dirs.workspace);
    await readFileTool.run({ path: "f.txt" }, ctx);
    let r = await editLinenoTool.run(
      { path: "f.txt", start_line: 2, end_line: 3, new_text: "TWO\nTHREE\nFOUR" },
      ctx,
    );
    expect(r.outcome).toBe("ok");
    expect(readFileSync(file, "utf8")).toBe("one\nTWO\nTHREE\nFOUR\n");
    expect(textOf(r)).toContain("     4\tFOUR");
    r = await editLinenoTool.run({ path: "f.txt", start_line: 1, end_line: 0, new_text: "zero\n" }, ctx);
    expect(readFileSync(file, "utf8")).toBe("zero\none\nTWO\nTHREE\nFOUR\n");
    r = await editLinenoTool.run({ path: "f.txt", start_line: 6, end_line: 5, new_text: "end" }, ctx);
    expect(readFileSync(file, "utf8")).toBe("zero\none\nTWO\nTHREE\nFOUR\nend\n");
    r = await editLinenoTool.run({ path: "f.txt", start_line: 2, end_line: 4, new_text: "" }, ctx);
    expect(readFileSync(file, "utf8")).toBe("zero\nFOUR\nend\n");
  });

  it("rejects an invalid range with the file's line count", async () => {
    const ctx = makeCtx(dirs.workspace);
    await readFileTool.run({ path: "f.txt" }, ctx);
    const r = await editLinenoTool.run({ path: "f.txt", start_line: 3, end_line: 7, new_text: "x" }, ctx);
    expect(r.outcome).toBe("error");
    expect(textOf(r)).toMatch(/has 3 lines/);
    const r2 = await editLinenoTool.run({ path: "f.txt", start_line: 3, end_line: 1, new_text: "x" }, ctx);
    expect(r2.outcome).toBe("error");
    expect(readFileSync(file, "utf8")).toBe("one\ntwo\nthree\n");
  });

  it("keeps CRLF line endings", async () => {
    writeFileSync(file, "a\r\nb\r\n");
    const ctx = makeCtx(dirs.workspace);
    await readFileTool.run({ path: "f.txt" }, ctx);
    await editLinenoTool.run({ path: "f.txt", start_line: 2, end_line: 2, new_text: "B" }, ctx);
    expect(readFileSync(file, "utf8")).toBe("a\r\nB\r\n");
  });
});
