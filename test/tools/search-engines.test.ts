// R-BIG-1: grep and glob give the same answer whether ripgrep runs them or the built-in walk and
// workers do (forced by a PATH without rg), under ripgrep's ignore rules: nested .gitignore,
// .ignore and .rgignore files, negations, a nested repository cutting the parent's .gitignore,
// hidden files, symbolic links left alone, CRLF lines, long lines, binary and empty files.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { globTool } from "../../src/tools/builtin/glob.js";
import { grepTool } from "../../src/tools/builtin/grep.js";
import { compileRules, verdictOf } from "../../src/tools/builtin/ignore-rules.js";
import { ripgrepPath } from "../../src/tools/builtin/ripgrep.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { makeCtx, textOf } from "./helpers.js";

let dirs: TempDirs;
const realPath = process.env.PATH;
const realRg = ripgrepPath();
/** A PATH whose `rg` logs each call and runs the real one: proves the ripgrep side used ripgrep. */
let rgPath = "";
let rgLog = "";

function put(rel: string, content: string | Buffer) {
  const abs = join(dirs.workspace, rel);
  mkdirSync(join(abs, ".."), { recursive: true });
  writeFileSync(abs, content);
}

beforeAll(() => {
  dirs = makeTempDirs();
  const bin = join(dirs.root, "bin");
  mkdirSync(bin);
  rgLog = join(dirs.root, "rg.log");
  writeFileSync(join(bin, "rg"), `#!/bin/sh\necho "$*" >> '${rgLog}'\nexec '${realRg}' "$@"\n`);
  chmodSync(join(bin, "rg"), 0o755);
  rgPath = `${bin}:/usr/bin:/bin`;
  put(".gitignore", "*.log\n!keep.log\nbuild/\n/top-only.txt\n");
  put("top-only.txt", "needle at top\n");
  put("a/top-only.txt", "needle below\n");
  put("a/x.log", "needle in log\n");
  put("a/keep.log", "needle kept\n");
  put("a/build/out.txt", "needle built\n");
  put("a/.ignore", "private/\n");
  put("a/private/p.txt", "needle private\n");
  put("a/b/.gitignore", "!*.log\nlocal.txt\n");
  put("a/b/again.log", "needle re-included\n");
  put("a/b/local.txt", "needle local\n");
  put("a/b/.rgignore", "rg-only.txt\n");
  put("a/b/rg-only.txt", "needle rg\n");
  put("nested/.git/HEAD", "ref: refs/heads/main\n");
  put("nested/z.log", "needle nested repo log\n");
  put("node_modules/m/i.js", "needle module\n");
  put(".hidden/h.txt", "needle hidden\nfoo_bar baz\n");
  put("crlf.txt", "needle one\r\nfoo\r\n\r\nneedle two\r\n");
  put("long.txt", `${"x".repeat(2000)} needle\nshort 42 needle\n`);
  put("bin.dat", Buffer.from("needle\0binary"));
  put("empty.txt", "");
  put("nofinal.txt", "last needle");
  put("unicode.txt", "café needle é\n  indented\tneedle\n");
  put("data/one.json", '{"needle": 1}\n');
  put("data/deep/two.json", '{"needle": 2}\n');
  put("data/deep/skip.log", "needle\n");
  symlinkSync(join(dirs.workspace, "a"), join(dirs.workspace, "link-dir"));
  symlinkSync(join(dirs.workspace, "crlf.txt"), join(dirs.workspace, "link.txt"));
  // A folder a deeper .gitignore re-includes keeps its files, and the rules match case exactly.
  put("re/.gitignore", "!build/\n");
  put("re/build/kept.txt", "needle re-included build\n");
  put("case/.gitignore", "Upper.txt\n");
  put("case/Upper.txt", "needle upper\n");
  put("case/upper.txt", "needle lower\n");
  for (let i = 0; i < 150; i++) put(`many/f${String(i).padStart(3, "0")}.txt`, "needle\nneedle again\n");
});
afterAll(() => {
  process.env.PATH = realPath;
  dirs.cleanup();
});

async function both(run: () => Promise<string>): Promise<[string, string]> {
  process.env.PATH = rgPath;
  writeFileSync(rgLog, "");
  const withRg = await run();
  expect(readFileSync(rgLog, "utf8")).not.toBe("");
  process.env.PATH = "/nonexistent-bin";
  try {
    return [withRg, await run()];
  } finally {
    process.env.PATH = realPath;
  }
}

const grep = (args: { pattern: string; path?: string; glob?: string }) => async () =>
  textOf(await grepTool.run(args, makeCtx(dirs.workspace)));
const glob = (args: { pattern: string; path?: string }) => async () =>
  textOf(await globTool.run(args, makeCtx(dirs.workspace)));

describe.skipIf(!realRg)("grep and glob: ripgrep and the built-in engine agree", () => {
  it("lists the same files under the same ignore rules", async () => {
    const [rg, builtin] = await both(glob({ pattern: "**/*" }));
    expect(builtin).toBe(rg);
    const files = rg.split("\n");
    const kept = ["a/keep.log", "a/b/again.log", "a/top-only.txt", "nested/z.log", ".hidden/h.txt"];
    for (const file of [...kept, "re/build/kept.txt", "case/upper.txt"]) expect(files).toContain(file);
    for (const gone of [
      "top-only.txt",
      "a/x.log",
      "a/build/out.txt",
      "a/private/p.txt",
      "a/b/local.txt",
      "case/Upper.txt",
    ])
      expect(files).not.toContain(gone);
    for (const gone of ["a/b/rg-only.txt", "node_modules/m/i.js", "nested/.git/HEAD", "link.txt"])
      expect(files).not.toContain(gone);
    expect(files.some((f) => f.startsWith("link-dir/"))).toBe(false);
  });

  it("judges paths with the ignore package's rule scan, not its ever-growing cache", () => {
    // verdictOf's fast path (ignore-rules.ts): an upgrade that drops it must fail here, not
    // quietly bring back ~35 MB and twice the walk time on a big tree.
    const rules = compileRules("*.log\n!keep.log\n");
    expect((rules as unknown as { _rules?: { test?: unknown } })._rules?.test).toBeTypeOf("function");
    expect(verdictOf(rules, "a/x.log")).toMatchObject({ ignored: true, unignored: false });
    expect(verdictOf(rules, "a/keep.log")).toMatchObject({ ignored: false, unignored: true });
    expect(verdictOf(rules, "a/X.LOG")).toMatchObject({ ignored: false, unignored: false });
  });

  it("matches globs the same way", async () => {
    for (const pattern of [
      "**/*.json",
      "data/**/*.json",
      "*.txt",
      "a/**",
      "**/*.{log,json}",
      "**/*.log",
      "many/f00?.txt",
    ]) {
      const [rg, builtin] = await both(glob({ pattern }));
      expect(builtin, pattern).toBe(rg);
    }
    // The built-in walk drops names that cannot match before the ignore rules judge the rest:
    // the files only negations bring back are still there.
    const [, logs] = await both(glob({ pattern: "**/*.log" }));
    expect(logs.split("\n")).toEqual(expect.arrayContaining(["a/keep.log", "a/b/again.log", "nested/z.log"]));
    expect(logs).not.toContain("a/x.log");
    const [rg] = await both(glob({ pattern: "**/*.json" }));
    expect(rg).toBe("data/deep/two.json\ndata/one.json");
  });

  it("finds the same lines for literals, alternations, classes and anchors", async () => {
    const patterns = [
      "needle",
      "needle|foo",
      "\\bneedle\\b",
      "^$",
      "^needle \\w+$",
      "\\d+ needle",
      "\\s+needle",
      "[^a-z ]needle",
      "caf. needle",
      "é$",
      "foo_bar\\s\\S+",
      "(?:one|two)$",
      "needle(?= two)",
      "x{3,}",
    ];
    for (const pattern of patterns) {
      if (pattern.includes("(?=")) continue; // not ripgrep's language: both sides search built-in
      const [rg, builtin] = await both(grep({ pattern }));
      expect(builtin, pattern).toBe(rg);
    }
    process.env.PATH = rgPath;
    expect(textOf(await grepTool.run({ pattern: "needle(?= two)" }, makeCtx(dirs.workspace)))).toBe(
      "crlf.txt:4:needle two",
    );
    process.env.PATH = realPath;
    const [lines] = await both(grep({ pattern: "needle", glob: "**/*.json" }));
    expect(lines).toBe('data/deep/two.json:1:{"needle": 2}\ndata/one.json:1:{"needle": 1}');
  });

  it("caps the output the same way and counts what it left out", async () => {
    const [rg, builtin] = await both(grep({ pattern: "needle" }));
    expect(builtin).toBe(rg);
    expect(rg).toMatch(/… \[\d+ more matches not shown/);
    expect(rg).toContain("crlf.txt:4:needle two");
    expect(rg).toContain(`long.txt:1:${"x".repeat(300)}…`);
    expect(rg).not.toContain("bin.dat");
    const [sub, subBuiltin] = await both(grep({ pattern: "needle", path: "a/b" }));
    expect(subBuiltin).toBe(sub);
    expect(sub).toBe("a/b/again.log:1:needle re-included");
  });

  it("leaves out files over 10 MB, whichever engine searches", async () => {
    put("huge/big.txt", `needle in a big file\n${"filler line\n".repeat(900_000)}`);
    put("huge/small.txt", "needle in a small file\n");
    const [rg, builtin] = await both(grep({ pattern: "needle", path: "huge" }));
    expect(builtin).toBe(rg);
    expect(rg).toBe("huge/small.txt:1:needle in a small file");
  });

  it("is the tree git itself would list, for the .gitignore rules", async () => {
    // A cross-check of the rules with git's own reading (git ignores .ignore/.rgignore).
    execFileSync("git", ["init", "-q"], { cwd: dirs.workspace });
    try {
      const listed = execFileSync("git", ["ls-files", "--others", "--exclude-standard", "a"], {
        cwd: dirs.workspace,
        encoding: "utf8",
      });
      expect(listed).toContain("a/b/again.log");
      expect(listed).not.toContain("a/x.log");
    } finally {
      execFileSync("rm", ["-rf", join(dirs.workspace, ".git")]);
    }
  });
});
