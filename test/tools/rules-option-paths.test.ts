// §10: `bash(git log*)` allowed `git log --output=../outside/x`. An option word
// `--name=VALUE` whose literal value is a path leading outside the workspace makes an otherwise
// allowed line ask, naming the real place; values that stay inside (`--format=%H`) do not. Each
// attack is first run in real git to prove its effect.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ApprovalPolicy } from "../../src/tools/policy/approval.js";
import { makeTempDirs } from "../support/tern-home.js";
import { bashCall } from "./helpers.js";

function repository() {
  const dirs = makeTempDirs();
  const ws = dirs.workspace;
  const env = { ...process.env, HOME: dirs.root, GIT_CONFIG_NOSYSTEM: "1" };
  execFileSync("git", ["init", "-q"], { cwd: ws, env });
  execFileSync(
    "git",
    ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "x"],
    {
      cwd: ws,
      env,
    },
  );
  mkdirSync(join(dirs.root, "outside"));
  return { dirs, ws, env, outside: join(dirs.root, "outside") };
}

const judge = (ws: string, line: string) =>
  new ApprovalPolicy({ mode: "ask", allow: ["bash(git log*)"], deny: [], cwd: ws }).evaluate(bashCall(line));

describe("an option's value naming a path outside the workspace asks", () => {
  it("git log --output=../outside/x really writes there, so the allowed line asks naming it", async () => {
    const { dirs, ws, env, outside } = repository();
    try {
      execFileSync("git", ["log", "--output=../outside/proof"], { cwd: ws, env });
      expect(existsSync(join(outside, "proof"))).toBe(true);
      const v = judge(ws, "git log --output=../outside/x");
      expect(v.decision).toBe("ask");
      expect(v.reason).toContain(`names a path outside the workspace in an option: --output=../outside/x`);
      expect(v.reason).toContain(join(outside, "x"));
      expect(judge(ws, `git log --output=${join(outside, "x")}`).decision).toBe("ask");
    } finally {
      dirs.cleanup();
    }
  });

  it("a symlinked folder inside is judged by where it leads; inside values still run unasked", () => {
    const { dirs, ws, outside } = repository();
    try {
      symlinkSync(outside, join(ws, "linked"));
      const v = judge(ws, "git log --output=linked/x");
      expect(v.decision).toBe("ask");
      expect(v.reason).toContain(`really ${join(outside, "x")}`);
      for (const line of [
        "git log --output=log.txt",
        "git log --format=%H --since=2.weeks",
        "git log --output=/dev/null",
        "git log --date=format:%Y/%m",
      ])
        expect(judge(ws, line).decision, line).toBe("allow");
    } finally {
      dirs.cleanup();
    }
  });
});
