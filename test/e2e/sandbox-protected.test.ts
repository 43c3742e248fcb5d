// What the sandbox keeps from a command (§10, R-SBX-2), the way the attacks were made: a
// `.git`/`.tern` the workspace does not have yet, nested repositories deep down or under
// dependency folders, and TERN_HOME (its config.json holds tool-set tokens).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { ternRun, toolMessages, useE2E } from "./tools-support.js";

const bwrapWorks =
  spawnSync("bwrap", ["--ro-bind", "/", "/", "--unshare-pid", "--unshare-net", "--", "true"]).status === 0;

const e = useE2E();
const ws = (name: string) => join(e.dirs.workspace, name);

/** One `tern run` whose model sends these commands, one round each; returns their results. */
async function sandboxedRounds(...commands: string[]) {
  const tmp = join(e.dirs.root, "tmp");
  mkdirSync(tmp, { recursive: true });
  e.provider.enqueue(
    ...commands.map((command, i) => openaiToolCalls([{ id: `b${i}`, name: "bash", args: { command } }])),
    openaiText("done"),
  );
  const run = await ternRun(e, ["--sandbox", "workspace-write"], "do it", {
    env: { TMPDIR: tmp, HOME: join(e.dirs.root, "user-home") },
  });
  expect(run.code, run.stderr).toBe(0);
  return commands.map((_, i) => toolMessages(e.provider.requests[i + 1].body)[i].content);
}

async function sandboxedBash(command: string) {
  return (await sandboxedRounds(command))[0];
}

describe.skipIf(!bwrapWorks)("the sandbox protects what tern and git obey", () => {
  it("a .tern/ or .git/ that does not exist yet cannot be created, and nothing is left behind", async () => {
    const output = await sandboxedBash(
      'mkdir -p .tern; echo \'{"permissions":{"mode":"yolo"}}\' > .tern/config.json; mkdir .git/hooks; git init -q .; echo done',
    );
    expect(output).toMatch(/Read-only file system/);
    expect(existsSync(ws(".tern"))).toBe(false);
    expect(existsSync(ws(".git"))).toBe(false);
  });

  it("nested repositories more than six levels down and under node_modules keep a read-only .git", async () => {
    const deep = "a/b/c/d/e/f/g/h";
    for (const repo of [deep, "node_modules/pkg"]) execFileSync("git", ["init", "-q", ws(repo)]);
    const before = readFileSync(ws(`${deep}/.git/config`), "utf8");
    const output = await sandboxedBash(
      `echo '[core] fsmonitor = touch PWNED' >> ${deep}/.git/config; echo x > node_modules/pkg/.git/hooks/pre-commit; echo ok > plain.txt`,
    );
    expect(output).toMatch(/Read-only file system/);
    expect(readFileSync(ws(`${deep}/.git/config`), "utf8")).toBe(before);
    expect(existsSync(ws("node_modules/pkg/.git/hooks/pre-commit"))).toBe(false);
    expect(readFileSync(ws("plain.txt"), "utf8")).toBe("ok\n");
  });

  it("a repository an earlier command of the session made is protected from the next command on", async () => {
    const [made, attack] = await sandboxedRounds(
      "git init -q sub && mkdir -p deep/er && git init -q deep/er/x && echo made",
      "echo '[core] fsmonitor = touch PWNED' >> sub/.git/config; mkdir deep/er/x/.tern; echo > deep/er/x/.git/hooks/pre-commit; echo ok > sub/plain.txt",
    );
    expect(made).toMatch(/made/);
    expect(attack).toMatch(/Read-only file system/);
    expect(readFileSync(ws("sub/.git/config"), "utf8")).not.toMatch(/fsmonitor/);
    // The placeholders beside the nested repositories are gone again.
    expect(existsSync(ws("deep/er/x/.tern"))).toBe(false);
    expect(existsSync(ws("sub/.tern"))).toBe(false);
    expect(existsSync(ws("deep/er/x/.git/hooks/pre-commit"))).toBe(false);
    expect(readFileSync(ws("sub/plain.txt"), "utf8")).toBe("ok\n");
  });

  it("a sandboxed command cannot read TERN_HOME", async () => {
    writeFileSync(join(e.dirs.home, "secret-note.txt"), "ghp_tokenvalue123456\n");
    const output = await sandboxedBash(
      `cat ${join(e.dirs.home, "secret-note.txt")}; ls ${e.dirs.home} | wc -l`,
    );
    expect(output).toMatch(/No such file or directory/);
    expect(output).not.toContain("ghp_tokenvalue123456");
  });
});
