// The resolver of the programs tern runs (§10): only absolute PATH entries count, and
// neither an entry inside the workspace nor a program whose real path lies there is used.
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { programPath, relativePathEntries, shellProgram } from "../../src/programs/program-path.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

function program(dir: string, name: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), "#!/bin/sh\nexit 0\n");
  chmodSync(join(dir, name), 0o755);
  return join(dir, name);
}

describe("programPath", () => {
  it("skips relative and empty entries and entries inside the workspace", () => {
    const inside = join(dirs.workspace, "node_modules", ".bin");
    program(inside, "tern-probe-prog");
    const machine = program(join(dirs.root, "machine-bin"), "tern-probe-prog");
    const workspaces = [dirs.workspace];
    expect(
      programPath("tern-probe-prog", {
        path: `./node_modules/.bin::${inside}:${join(dirs.root, "machine-bin")}`,
        workspaces,
      }),
    ).toBe(machine);
    expect(
      programPath("tern-probe-prog", { path: `./node_modules/.bin:${inside}`, workspaces }),
    ).toBeUndefined();
    expect(relativePathEntries(`./node_modules/.bin::/usr/bin`)).toEqual(["./node_modules/.bin", ""]);
  });

  it("skips a program outside whose real path leads into the workspace, and one that is not executable", () => {
    const inside = program(join(dirs.workspace, "bin"), "tern-probe-link");
    mkdirSync(join(dirs.root, "links"));
    symlinkSync(inside, join(dirs.root, "links", "tern-probe-link"));
    writeFileSync(join(dirs.root, "links", "tern-probe-plain"), "not executable");
    const path = join(dirs.root, "links");
    expect(programPath("tern-probe-link", { path, workspaces: [dirs.workspace] })).toBeUndefined();
    expect(programPath("tern-probe-plain", { path, workspaces: [dirs.workspace] })).toBeUndefined();
  });

  it("the shell is an absolute path", () => {
    expect(shellProgram(dirs.workspace).startsWith("/")).toBe(true);
  });
});
