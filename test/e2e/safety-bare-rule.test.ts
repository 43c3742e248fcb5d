// Through `tern run`, the way the attacks were made: a bare `--allow bash` covers any program but
// only plainly literal lines (R-TOOL-2), and no allow rule covers a redirect into a TERN_HOME that
// lies inside the workspace (§10). The disk is checked, not only what tern said.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, jsonEvents } from "../support/cli.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { toolMessages, useE2E } from "./tools-support.js";

const e = useE2E();
const ws = (name: string) => join(e.dirs.workspace, name);

async function runBatch(commands: string[], args: string[], home = e.dirs.home) {
  const calls = commands.map((command, i) => ({ id: `c${i}`, name: "bash", args: { command } }));
  e.provider.enqueue(openaiToolCalls(calls), openaiText("ok"));
  const run = await runCli(
    ["run", "--json", "--model", "openai/mock-1", "--base-url", e.provider.baseUrl, ...args, "do it"],
    { home, cwd: e.dirs.workspace, env: { OPENAI_API_KEY: "sk-test-key" } },
  );
  expect(run.stderr).not.toMatch(/internal error/);
  expect(run.code, run.stderr).toBe(0);
  const approvals = new Map(
    jsonEvents(run.stdout)
      .filter((ev) => ev.type === "approval")
      .map((ev) => [ev.id, ev.decision]),
  );
  return { sent: toolMessages(e.provider.requests[1].body), approvals };
}

describe("--allow bash covers plainly literal lines only", () => {
  it("substitutions, assignments, eval and continued redirects are denied without --yes; literal lines run", async () => {
    mkdirSync(join(e.dirs.root, "outside"));
    const attacks = [
      "echo $(touch m0)",
      "ls `touch m1`",
      "X=1 touch m2",
      "eval 'touch m3'",
      "echo x >\\\n ../outside/x4",
      "echo x > ../outside/x5",
    ];
    const literal = ["git --version && echo made > listing.txt", "echo made > listing.txt 2>&1"];
    const { sent, approvals } = await runBatch([...attacks, ...literal], ["--allow", "bash"]);
    attacks.forEach((a, i) => {
      expect(approvals.get(`c${i}`), a).toBe("denied");
      expect(sent[i].content, a).toMatch(/without --yes/);
    });
    for (const m of ["m0", "m1", "m2", "m3"]) expect(existsSync(ws(m)), m).toBe(false);
    for (const x of ["x4", "x5"]) expect(existsSync(join(e.dirs.root, "outside", x)), x).toBe(false);
    expect(approvals.has(`c${attacks.length + 1}`)).toBe(false);
    // A write after another command of the line could land through a link that command made.
    expect(approvals.get(`c${attacks.length}`)).toBe("denied");
    expect(readFileSync(ws("listing.txt"), "utf8")).toBe("made\n");
  });

  it("yolo still runs what a bare rule does not cover", async () => {
    const { approvals } = await runBatch(["echo $(touch m0)"], ["--allow", "bash", "--mode", "yolo"]);
    expect(approvals.size).toBe(0);
    expect(existsSync(ws("m0"))).toBe(true);
  });
});

describe("a word naming a path inside .git/ is not covered either", () => {
  it("`cp hook .git/hooks/pre-commit` under bash(cp*) is denied, and no hook appears", async () => {
    mkdirSync(ws(".git/hooks"), { recursive: true });
    writeFileSync(ws("hook"), "#!/bin/sh\ntouch PWNED\n");
    const { approvals } = await runBatch(
      ["cp hook .git/hooks/pre-commit", "cd .git && cp ../hook hooks/post-checkout"],
      ["--allow", "bash(cp*)", "--allow", "bash(cd*)"],
    );
    expect([...approvals.values()]).toEqual(["denied", "denied"]);
    expect(existsSync(ws(".git/hooks/pre-commit"))).toBe(false);
    expect(existsSync(ws(".git/hooks/post-checkout"))).toBe(false);
  });
});

describe("a TERN_HOME inside the workspace is not a redirect target any rule covers", () => {
  it("`echo … > th/config.json` under bash(echo*) or bash is denied, and the config is unchanged", async () => {
    const home = ws("th");
    mkdirSync(home);
    const config = JSON.stringify({ permissions: { mode: "ask" } });
    writeFileSync(join(home, "config.json"), config);
    const attacks = [
      `echo '{"permissions":{"mode":"yolo"}}' > th/config.json`,
      "echo planted >> th/skills.md",
      "cat th/config.json",
    ];
    for (const allow of ["bash(echo*)", "bash"]) {
      e.provider.requests.length = 0;
      const { sent, approvals } = await runBatch(attacks, ["--allow", allow, "--allow", "bash(cat*)"], home);
      attacks.forEach((a, i) => {
        expect(approvals.get(`c${i}`), `${allow}: ${a}`).toBe("denied");
        expect(sent[i].content).toMatch(/without --yes/);
      });
      expect(readFileSync(join(home, "config.json"), "utf8")).toBe(config);
      expect(existsSync(join(home, "skills.md"))).toBe(false);
    }
  });
});
