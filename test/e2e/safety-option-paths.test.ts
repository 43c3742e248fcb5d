// §10 through `tern run`: under `--allow 'bash(git log*)'` the model's
// `git log --output=../outside/x` used to run unasked and write outside the workspace. Now an
// option word whose value leads outside asks (denied without --yes); the same line writing inside
// still runs. The disk is checked, not only what tern said.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { ternRun, useE2E } from "./tools-support.js";

const e = useE2E();

describe("bash(git log*) and --output=VALUE", () => {
  it("asks for --output=../outside/x (denied without --yes, nothing written); --output=inside runs", async () => {
    const home = join(e.dirs.root, "user");
    mkdirSync(home);
    mkdirSync(join(e.dirs.root, "outside"));
    const env = { HOME: home, GIT_CONFIG_NOSYSTEM: "1" };
    execFileSync("git", ["init", "-q"], { cwd: e.dirs.workspace, env: { ...process.env, ...env } });
    execFileSync(
      "git",
      ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "first"],
      { cwd: e.dirs.workspace, env: { ...process.env, ...env } },
    );
    e.provider.enqueue(
      openaiToolCalls([
        { id: "out", name: "bash", args: { command: "git log --output=../outside/x" } },
        { id: "in", name: "bash", args: { command: "git log --output=inside.txt" } },
      ]),
      openaiText("ok"),
    );
    const run = await ternRun(e, ["--allow", "bash(git log*)"], "log it", { env });
    expect(run.code).toBe(0);
    const approvals = new Map(
      run.events.filter((ev) => ev.type === "approval").map((ev) => [ev.id, ev.decision]),
    );
    expect(approvals.get("out")).toBe("denied");
    expect(approvals.has("in")).toBe(false);
    expect(existsSync(join(e.dirs.root, "outside", "x"))).toBe(false);
    expect(existsSync(join(e.dirs.workspace, "inside.txt"))).toBe(true);
  });
});
