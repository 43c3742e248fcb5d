import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFileTool } from "../../src/tools/builtin/read-file.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { makeCtx, textOf } from "./helpers.js";

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

describe("read_file", () => {
  it("numbers lines like cat -n and authorizes edits", async () => {
    writeFileSync(join(dirs.workspace, "a.txt"), "alpha\nbeta\n");
    const ctx = makeCtx(dirs.workspace);
    const r = await readFileTool.run({ path: "a.txt" }, ctx);
    expect(r.outcome).toBe("ok");
    expect(textOf(r)).toBe("     1\talpha\n     2\tbeta");
    const abs = join(dirs.workspace, "a.txt");
    utimesSync(abs, new Date(), new Date(Date.now() + 5000));
    expect(ctx.readTracker.checkEditable(abs, 0)).toMatch(/changed on disk/);
  });

  it("honours offset and limit and says how many lines remain", async () => {
    const lines = Array.from({ length: 10 }, (_, i) => `line${i + 1}`).join("\n");
    writeFileSync(join(dirs.workspace, "b.txt"), lines);
    const r = await readFileTool.run({ path: "b.txt", offset: 3, limit: 2 }, makeCtx(dirs.workspace));
    const text = textOf(r);
    expect(text.split("\n").slice(0, 2)).toEqual(["     3\tline3", "     4\tline4"]);
    expect(text).toContain("6 more lines");
    expect(text).toContain("offset=5");
  });

  it("defaults to 2000 lines and cuts long lines", async () => {
    const lines = Array.from({ length: 2100 }, (_, i) => (i === 0 ? "x".repeat(5000) : `l${i + 1}`)).join(
      "\n",
    );
    writeFileSync(join(dirs.workspace, "big.txt"), lines);
    const text = textOf(await readFileTool.run({ path: "big.txt" }, makeCtx(dirs.workspace)));
    expect(text).toContain("  2000\tl2000");
    expect(text).not.toContain("\tl2001");
    expect(text).toContain("offset=2001");
    expect(text).toContain("line cut, 3000 more characters");
  });

  it("refuses binary files and past-the-end offsets; reports missing files and folders", async () => {
    writeFileSync(join(dirs.workspace, "bin.dat"), Buffer.from([1, 2, 0, 3]));
    mkdirSync(join(dirs.workspace, "sub"));
    writeFileSync(join(dirs.workspace, "s.txt"), "one\n");
    const ctx = makeCtx(dirs.workspace);
    const bin = await readFileTool.run({ path: "bin.dat" }, ctx);
    expect(bin.outcome).toBe("error");
    expect(textOf(bin)).toMatch(/binary/);
    expect(textOf(await readFileTool.run({ path: "nope.txt" }, ctx))).toMatch(/File not found: nope.txt/);
    expect(textOf(await readFileTool.run({ path: "sub" }, ctx))).toMatch(/is a directory/);
    expect((await readFileTool.run({ path: "s.txt", offset: 5 }, ctx)).outcome).toBe("error");
  });

  it("returns images as image parts by magic bytes, whatever the name", async () => {
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(20),
    ]);
    writeFileSync(join(dirs.workspace, "pic.bin"), png);
    const r = await readFileTool.run({ path: "pic.bin" }, makeCtx(dirs.workspace));
    expect(r.outcome).toBe("ok");
    const img = r.content.find((c) => c.type === "image");
    expect(img).toEqual({ type: "image", mediaType: "image/png", data: png.toString("base64") });
    expect(r.content[0].type).toBe("text");
  });
});
