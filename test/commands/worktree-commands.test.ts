// `/worktree` (R-WT): lists tern's worktrees, shows one's changes, and applies them to this
// checkout only when asked a second time for the same changes; a real git repository.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CommandHost } from "../../src/commands/host.js";
import { worktreeCommand } from "../../src/commands/worktree-commands.js";
import { createWorktree } from "../../src/worktrees/index.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" });

beforeEach(() => {
  dirs = makeTempDirs();
  git(dirs.workspace, "init", "-q", "-b", "main");
  writeFileSync(join(dirs.workspace, "a.txt"), "one\n");
  git(dirs.workspace, "add", "-A");
  git(dirs.workspace, "commit", "-qm", "init");
});
afterEach(() => dirs.cleanup());

function host(): { host: CommandHost; out: string[] } {
  const out: string[] = [];
  const h = {
    cwd: dirs.workspace,
    print: (t: string) => out.push(t),
    error: (t: string) => out.push(`error: ${t}`),
  } as unknown as CommandHost;
  return { host: h, out };
}

describe("/worktree", () => {
  it("lists, shows, and applies on the second ask only", async () => {
    const { host: h, out } = host();
    await worktreeCommand.run(h, [], "");
    expect(out.pop()).toMatch(/^no tern worktrees in this repository/);

    const wt = await createWorktree({ cwd: dirs.workspace, name: "w1" });
    writeFileSync(join(wt.path, "a.txt"), "two\n");
    writeFileSync(join(wt.path, "new.txt"), "new\n");
    await worktreeCommand.run(h, [], "");
    expect(out.pop()).toBe(`w1  tern/w1  changed=2  commits=0  ${wt.path}`);

    await worktreeCommand.run(h, ["apply", "w1"], "apply w1");
    expect(out.at(-2)).toContain("a.txt   | 2 +-");
    expect(out.at(-2)).toContain("+two");
    expect(out.at(-1)).toBe("/worktree apply w1 again to apply these changes to this checkout");
    expect(readFileSync(join(dirs.workspace, "a.txt"), "utf8")).toBe("one\n");

    await worktreeCommand.run(h, ["apply", "w1"], "apply w1");
    expect(out.at(-1)).toMatch(/^applied worktree 'w1':\n a\.txt {3}\| 2 \+-\n new\.txt \| 1 \+/);
    expect(readFileSync(join(dirs.workspace, "a.txt"), "utf8")).toBe("two\n");
    expect(readFileSync(join(dirs.workspace, "new.txt"), "utf8")).toBe("new\n");
  });

  it("changes that moved since they were shown are shown again, not applied", async () => {
    const { host: h, out } = host();
    const wt = await createWorktree({ cwd: dirs.workspace, name: "w2" });
    writeFileSync(join(wt.path, "a.txt"), "two\n");
    await worktreeCommand.run(h, ["apply", "w2"], "");
    writeFileSync(join(wt.path, "a.txt"), "three\n");
    await worktreeCommand.run(h, ["apply", "w2"], "");
    expect(out.at(-1)).toBe("/worktree apply w2 again to apply these changes to this checkout");
    expect(readFileSync(join(dirs.workspace, "a.txt"), "utf8")).toBe("one\n");
    await worktreeCommand.run(h, ["apply", "nosuch"], "");
    expect(out.at(-1)).toBe("error: no worktree 'nosuch' that tern made (tern worktrees lists them)");
  });
});
