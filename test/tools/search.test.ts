import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { globTool } from "../../src/tools/builtin/glob.js";
import { grepTool } from "../../src/tools/builtin/grep.js";
import { searchFiles } from "../../src/tools/builtin/grep-search.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { makeCtx, textOf } from "./helpers.js";

let dirs: TempDirs;
function put(rel: string, content: string | Buffer) {
  const abs = join(dirs.workspace, rel);
  mkdirSync(join(abs, ".."), { recursive: true });
  writeFileSync(abs, content);
}
beforeEach(() => {
  dirs = makeTempDirs();
  put(".gitignore", "dist/\n*.log\n");
  put("src/a.ts", "const needle = 1;\nother\n");
  put("src/b.js", "needle();\n");
  put("src/sub/.gitignore", "secret.ts\n");
  put("src/sub/secret.ts", "needle\n");
  put("src/sub/ok.ts", "no match\n");
  put("dist/out.js", "needle\n");
  put("debug.log", "needle\n");
  put("node_modules/pkg/index.js", "needle\n");
  put(".git/config", "needle\n");
  put("img.bin", Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0, 1]));
});
afterEach(() => dirs.cleanup());

describe("grep", () => {
  it("prints path:line:text, skipping gitignored (nested too), .git, node_modules and binary files", async () => {
    const r = await grepTool.run({ pattern: "needle" }, makeCtx(dirs.workspace));
    expect(r.outcome).toBe("ok");
    expect(textOf(r).split("\n")).toEqual(["src/a.ts:1:const needle = 1;", "src/b.js:1:needle();"]);
  });

  it("filters by glob and path", async () => {
    const ctx = makeCtx(dirs.workspace);
    expect(textOf(await grepTool.run({ pattern: "need", glob: "**/*.ts" }, ctx))).toBe(
      "src/a.ts:1:const needle = 1;",
    );
    expect(textOf(await grepTool.run({ pattern: "need", path: "src/b.js" }, ctx))).toBe(
      "src/b.js:1:needle();",
    );
    expect(textOf(await grepTool.run({ pattern: "zzz", path: "src" }, ctx))).toMatch(/No matches/);
  });

  it("names an invalid regex", async () => {
    const r = await grepTool.run({ pattern: "a(b" }, makeCtx(dirs.workspace));
    expect(r.outcome).toBe("error");
    expect(textOf(r)).toMatch(/^Invalid regex "a\(b"/);
  });

  it("caps the output at 200 matches with a count of the rest", async () => {
    put("many.txt", Array.from({ length: 250 }, () => "hit").join("\n"));
    const lines = textOf(await grepTool.run({ pattern: "hit" }, makeCtx(dirs.workspace))).split("\n");
    expect(lines).toHaveLength(201);
    expect(lines[200]).toMatch(/50 more matches/);
  });
});

describe("glob", () => {
  it("lists matching files sorted, respecting .gitignore", async () => {
    const r = await globTool.run({ pattern: "**/*.{ts,js}" }, makeCtx(dirs.workspace));
    expect(textOf(r).split("\n")).toEqual(["src/a.ts", "src/b.js", "src/sub/ok.ts"]);
  });

  it("takes the pattern relative to path and reports workspace-relative names", async () => {
    const r = await globTool.run({ pattern: "*.ts", path: "src/sub" }, makeCtx(dirs.workspace));
    expect(textOf(r)).toBe("src/sub/ok.ts");
    const none = await globTool.run({ pattern: "*.py" }, makeCtx(dirs.workspace));
    expect(textOf(none)).toMatch(/No files match/);
  });
});

describe("grep's built-in search is bounded", () => {
  it("terminates its workers when a backtracking pattern runs past the time given", async () => {
    put("a.txt", `${"a".repeat(60)}!\n`);
    const outcome = await searchFiles(
      {
        pattern: "^(a+)+$",
        dir: dirs.workspace,
        files: ["a.txt"],
        maxMatches: 200,
        maxLineChars: 300,
        maxFileBytes: 1 << 20,
      },
      300,
      new AbortController().signal,
    );
    // 60 a's then "!" take this pattern ~2^60 steps: only the timer can end it.
    expect(outcome).toEqual({ kind: "timeout" });
  });
});
