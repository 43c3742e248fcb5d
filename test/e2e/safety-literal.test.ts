// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are shell command lines, `${…}` included on purpose.
// The literal-line gate through `tern run`: allow rules cover only plainly literal lines (R-TOOL-2), so the
// backslash-newline redirects and the arithmetic in `${…}` that passed `bash(ls*)` and the
// README's `bash(git status*)` are denied without --yes; deny rules see aliases the line defines
// (BASH_ALIASES, `git config alias.…`). Each test replays what a hostile model sent and checks
// the disk, not only what tern said.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { ternRun, toolMessages, useE2E, writeUserConfig } from "./tools-support.js";

const e = useE2E();
const ws = (name: string) => join(e.dirs.workspace, name);
const outside = (name: string) => join(e.dirs.root, name);

async function runBatch(commands: string[], args: string[]) {
  const calls = commands.map((command, i) => ({ id: `c${i}`, name: "bash", args: { command } }));
  e.provider.enqueue(openaiToolCalls(calls), openaiText("ok"));
  const run = await ternRun(e, args, "do it", { env: { HOME: outside("fakehome") } });
  expect(run.stderr).not.toMatch(/internal error/);
  expect(run.code).toBe(0);
  const approvals = new Map(
    run.events.filter((ev) => ev.type === "approval").map((ev) => [ev.id, ev.decision]),
  );
  return { sent: toolMessages(e.provider.requests[1].body), approvals };
}

const OPS = [">", "2>", "&>", ">>", ">&", "{fd}>", ">|", "<>"];
const TARGETS = ["../outside/x", "~/x", ".git/x"];

describe("allow rules cover only plainly literal lines", () => {
  for (const program of ["ls", "git status"]) {
    it(`bash(${program}*): backslash-newline redirects and \${…} arithmetic are denied, nothing is written`, async () => {
      mkdirSync(outside("outside"));
      mkdirSync(outside("fakehome"));
      mkdirSync(ws(".git"));
      const attacks = [
        ...OPS.flatMap((op) => TARGETS.map((t) => `${program} ${op}\\\n ${t}`)),
        `${program} \${PWD:'$(touch m0)'}`,
        `${program} \${PWD:0:'$(touch m1)'}`,
        `${program} \${x[$'\\x24(touch m2)']}`,
      ];
      const { sent, approvals } = await runBatch(attacks, ["--allow", `bash(${program}*)`]);
      attacks.forEach((a, i) => {
        expect(approvals.get(`c${i}`), a).toBe("denied");
        expect(sent[i].content, a).toMatch(/without --yes/);
      });
      expect(existsSync(outside("outside/x"))).toBe(false);
      expect(existsSync(outside("fakehome/x"))).toBe(false);
      expect(existsSync(ws(".git/x"))).toBe(false);
      for (const m of ["m0", "m1", "m2"]) expect(existsSync(ws(m)), m).toBe(false);
    });
  }

  it("plainly literal lines still run unasked, redirects into the workspace included", async () => {
    const { approvals } = await runBatch(
      ["ls -a > listing.txt 2>&1", "ls -a 'listing.txt' && ls -1 | ls # a comment $(touch m)"],
      ["--allow", "bash(ls*)"],
    );
    expect(approvals.size).toBe(0);
    expect(readFileSync(ws("listing.txt"), "utf8")).toMatch(/^\.\n\.\.\n/);
    expect(existsSync(ws("m"))).toBe(false);
  });
});

describe("deny rules see aliases the line defines", () => {
  it("BASH_ALIASES and BASH_CMDS entries are the command they stand for, even with --yes", async () => {
    for (const d of ["d0", "d1", "d2"]) mkdirSync(ws(d));
    writeUserConfig(e, { permissions: { deny: ["bash(rm -rf*)"] } });
    const { sent } = await runBatch(
      [
        "BASH_ALIASES[zz]='rm -rf'; shopt -s expand_aliases\nzz d0",
        "shopt -s expand_aliases; BASH_ALIASES+=([zz]='rm -rf')\nzz d1",
        "BASH_CMDS[zz]=/bin/rm; zz -rf d2",
      ],
      ["--yes"],
    );
    for (const m of sent) expect(m.content).toBe("denied by rule bash(rm -rf*)");
    for (const d of ["d0", "d1", "d2"]) expect(existsSync(ws(d)), d).toBe(true);
  });

  it("`git config alias.qq push; git qq` is git push for bash(git push*)", async () => {
    execFileSync("git", ["init", "-q"], { cwd: e.dirs.workspace });
    writeUserConfig(e, { permissions: { deny: ["bash(git push*)"] } });
    const { sent } = await runBatch(
      ["git config alias.qq push; git qq", "git config --local alias.pp 'push --force' && git pp origin"],
      ["--yes"],
    );
    for (const m of sent) expect(m.content).toBe("denied by rule bash(git push*)");
    expect(readFileSync(ws(".git/config"), "utf8")).not.toMatch(/alias/);
  });
});
