// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are shell command lines, `${…}` included on purpose.
// Variants of the known allow-rule attacks that were not listed: other expansions, other redirect forms and
// targets, links, and other ways to name TERN_HOME (also after `cd`). Each line is run in real
// bash first to show its effect (a substitution run, a file written outside, into a repository or
// out of TERN_HOME); then, under the rules that would otherwise cover it, the policy must ask.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ApprovalPolicy } from "../../src/tools/policy/approval.js";
import { bashCall } from "./helpers.js";
import { useStandIns } from "./stand-ins.js";

const box = useStandIns();

interface Place {
  ws: string;
  outside: string;
  home: string;
}

let runs = 0;
/** A workspace with `.git/`, a nested repository `sub/`, TERN_HOME `th/` and a link out, beside `outside/`. */
function place(): Place {
  const root = join(box.dirs.root, `v${runs++}`);
  const ws = join(root, "ws");
  for (const d of [".git", "sub/.git/hooks", ".tern", "th"]) mkdirSync(join(ws, d), { recursive: true });
  writeFileSync(join(ws, "th/config.json"), '{"secret":"tok"}');
  writeFileSync(join(ws, "f.txt"), "x");
  mkdirSync(join(root, "outside"));
  symlinkSync("../outside", join(ws, "link"));
  return { ws, outside: join(root, "outside"), home: join(ws, "th") };
}

function runBash(line: string, p: Place): void {
  spawnSync("bash", ["-c", line], {
    cwd: p.ws,
    stdio: "ignore",
    timeout: 10_000,
    env: { PATH: "/usr/bin:/bin", HOME: p.ws, P: "x" },
  });
}

type Effect = (p: Place) => boolean;
/** Ask mode with these allow rules, in the place's workspace and TERN_HOME. */
const askPolicy = (p: Place, allow: string[]) =>
  new ApprovalPolicy({ mode: "ask", allow, deny: [], cwd: p.ws, ternHome: p.home });

const made =
  (rel: string): Effect =>
  (p) =>
    existsSync(join(p.ws, rel));
const out =
  (name: string): Effect =>
  (p) =>
    existsSync(join(p.outside, name));

/** [line, the rules that would cover its program, what bash did] */
const CASES: [string, string[], Effect][] = [
  // Expansions of every other kind.
  ['ls $"$(touch m1)"', ["bash(ls*)", "bash"], made("m1")],
  ["ls ${!P:-$(touch m2)}", ["bash(ls*)", "bash"], made("m2")],
  ["ls $((0$(touch m3)))", ["bash(ls*)", "bash"], made("m3")],
  ["ls $[$(touch m4)]", ["bash(ls*)", "bash"], made("m4")],
  // cat reads to the end, so touch has run when bash exits.
  ["cat <(touch m5)", ["bash(cat*)", "bash"], made("m5")],
  ["ls x{,$(touch m6)}", ["bash(ls*)", "bash"], made("m6")],
  ['ls "$(touch m7)"', ["bash(ls*)", "bash"], made("m7")],
  ["echo x >> ~+/../outside/a8", ["bash(echo *)", "bash"], out("a8")],
  // A comment ends at the newline, whatever ends the comment line; then another command runs.
  ["ls # x \\\ntouch m9", ["bash(ls*)"], made("m9")],
  // Other redirect forms and targets.
  ["echo x >&../outside/a10", ["bash(echo *)", "bash"], out("a10")],
  ["echo x 3>../outside/a11", ["bash(echo *)", "bash"], out("a11")],
  ["echo x > /proc/self/cwd/../outside/a12", ["bash(echo *)", "bash"], out("a12")],
  ["echo x > ./../outside/a13", ["bash(echo *)", "bash"], out("a13")],
  ["echo x > link/a14", ["bash(echo *)", "bash"], out("a14")],
  ["echo x > sub/.git/hooks/pre-commit", ["bash(echo *)", "bash"], made("sub/.git/hooks/pre-commit")],
  ["echo x > .tern/commands.md", ["bash(echo *)", "bash"], made(".tern/commands.md")],
  // TERN_HOME named by a word, by a redirect, through a link, and after `cd`.
  ["cp th/config.json leak1", ["bash(cp *)", "bash"], made("leak1")],
  [
    "cp f.txt th/config.json",
    ["bash(cp *)", "bash"],
    (p) => readFileSync(join(p.home, "config.json"), "utf8") === "x",
  ],
  ["cat th/../th/config.json > leak2", ["bash(cat *)", "bash"], made("leak2")],
  [
    "mkdir -p a; cd a; cp ../th/config.json ../leak3",
    ["bash(mkdir *)", "bash(cd *)", "bash(cp *)", "bash"],
    made("leak3"),
  ],
  ["cd th && cp config.json ../leak4", ["bash(cd *)", "bash(cp *)", "bash"], made("leak4")],
  [
    "mkdir b; cd -P -- b; cp ../th/config.json ../leak6",
    ["bash(mkdir *)", "bash(cd *)", "bash(cp *)", "bash"],
    made("leak6"),
  ],
  ["ln -s th tl; cp tl/config.json leak5", ["bash(ln *)", "bash(cp *)", "bash"], made("leak5")],
  // A program's own write into .git/ or .tern/, named by a word.
  ["cp f.txt .git/hooks-x", ["bash(cp *)", "bash"], made(".git/hooks-x")],
  ["echo x | tee sub/.git/config", ["bash(echo *)", "bash(tee *)", "bash"], made("sub/.git/config")],
  ["cd .git && cp ../f.txt config", ["bash(cd *)", "bash(cp *)", "bash"], made(".git/config")],
  ["ln -s ../f.txt .tern/config.json", ["bash(ln *)", "bash"], made(".tern/config.json")],
  ["cp --target-directory=th f.txt", ["bash(cp *)", "bash"], (p) => existsSync(join(p.home, "f.txt"))],
];

describe("variants of the allow-rule attacks ask under the rules that would cover their programs", () => {
  for (const [line, rules, effect] of CASES)
    it(JSON.stringify(line), () => {
      const seen = place();
      runBash(line, seen);
      expect(effect(seen), "bash did it").toBe(true);
      const p = place();
      for (const rule of rules) {
        const allow = rule === "bash" ? ["bash"] : rules.filter((r) => r !== "bash");
        const policy = askPolicy(p, allow);
        expect(policy.decide(bashCall(line)), `${line} under ${allow.join(", ")}`).toBe("ask");
      }
    });

  it("after a `cd` to a folder known only when it runs, relative words are not judged: it asks", () => {
    const p = place();
    const policy = askPolicy(p, ["bash"]);
    const v = policy.evaluate(bashCall("cd - && cat config.json"));
    expect(v.decision).toBe("ask");
    expect(v.reason).toMatch(/known only when it runs/);
    // Ordinary cd lines, and words naming .git itself, still run.
    for (const line of [
      "cd sub && git status && cd .. && ls -la",
      "grep -rn needle --exclude-dir=.git .",
      "ls -a .git",
      "find . -name .git -prune",
    ])
      expect(policy.decide(bashCall(line)), line).toBe("allow");
  });
});
