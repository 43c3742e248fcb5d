// The places a bash command names (R-WF-1 subfolder instructions): cd targets, path-like words,
// globs up to their fixed folder; nothing built at run time; bounded.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { commandPaths } from "../../src/engine/command-paths.js";

const ws = "/w";
const real = mkdtempSync(join(tmpdir(), "tern-paths-"));
afterAll(() => rmSync(real, { recursive: true, force: true }));

describe("commandPaths", () => {
  it("finds cd targets and path-like words, relative words after a cd against its target", () => {
    expect(commandPaths(ws, "cd packages && ls api")).toEqual(["/w/packages"]);
    expect(commandPaths(ws, "cd packages && ls api/src; cat ./README.md")).toEqual([
      "/w/packages",
      "/w/packages/api/src",
      "/w/packages/README.md",
    ]);
    expect(commandPaths(ws, "pushd 'apps/web' >/dev/null")).toEqual(["/w/apps/web", "/dev/null"]);
    expect(commandPaths(ws, "grep -rn foo --include=*.ts src/lib | head")).toEqual(["/w/src/lib"]);
    expect(commandPaths(ws, "eslint --config=tools/eslint.js")).toEqual(["/w/tools/eslint.js"]);
    expect(commandPaths(ws, "git -C api status && npm --prefix web test")).toEqual(["/w/api", "/w/web"]);
  });

  it("a word the kernel cannot stat (longer than a file name may be) is no folder, not an error", () => {
    const long = "x".repeat(5000);
    expect(() => commandPaths(real, `echo ${long}`)).not.toThrow();
    expect(commandPaths(real, `echo ${long}`)).toEqual([]);
  });

  it("counts a glob up to its last fixed folder; skips what the shell would build", () => {
    expect(commandPaths(ws, 'wc -l "packages/web/src/"*.ts')).toEqual(["/w/packages/web/src"]);
    expect(commandPaths(ws, "ls */AGENTS.md")).toEqual([]);
    expect(commandPaths(ws, "cat $HOME/x/y ~/a/b `pwd`/c https://example.com/a")).toEqual([]);
    expect(commandPaths(ws, "npm test")).toEqual([]);
  });

  it("counts a bare word only when it names a folder that exists", () => {
    mkdirSync(join(real, "packages", "api"), { recursive: true });
    expect(commandPaths(real, "cd packages && ls api README.md")).toEqual([
      join(real, "packages"),
      join(real, "packages", "api"),
    ]);
    expect(commandPaths(real, "git status")).toEqual([]);
  });

  it("is bounded: 16 paths, the first 4 KB", () => {
    const many = Array.from({ length: 40 }, (_, i) => `d${i}/f`).join(" ");
    expect(commandPaths(ws, `cat ${many}`)).toHaveLength(16);
    expect(commandPaths(ws, `${" ".repeat(5000)}cat a/b`)).toEqual([]);
  });
});
