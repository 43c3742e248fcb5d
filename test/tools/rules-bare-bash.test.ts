// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are shell command lines, `${…}` included on purpose.
// A bare `bash` allow rule (R-TOOL-2): it names every program, never every line. Each line below
// is first run in real bash to show what it would do (a substitution run, a file written outside
// or into TERN_HOME); then the policy must ask. Yolo still runs everything.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ApprovalPolicy } from "../../src/tools/policy/approval.js";
import { bashCall } from "./helpers.js";
import { useStandIns } from "./stand-ins.js";

const box = useStandIns();

let runs = 0;
/** A fresh workspace with a `.git/` and a TERN_HOME `th/` inside it, beside `outside/`. */
function place() {
  const root = join(box.dirs.root, `r${runs++}`);
  const ws = join(root, "ws");
  mkdirSync(join(ws, ".git"), { recursive: true });
  mkdirSync(join(ws, "th"));
  writeFileSync(join(ws, "th/config.json"), "{}");
  mkdirSync(join(root, "outside"));
  return { ws, home: join(ws, "th"), outside: join(root, "outside") };
}

function runBash(command: string, cwd: string): void {
  spawnSync("bash", ["-c", command], { cwd, stdio: "ignore", timeout: 10_000 });
}

const policy = (cwd: string, allow: string[], ternHome?: string, mode: "ask" | "yolo" = "ask") =>
  new ApprovalPolicy({ mode, allow, deny: [], cwd, ternHome });

describe("a bare `bash` rule covers any program, in plainly literal lines only", () => {
  const attacks: [string, (p: ReturnType<typeof place>) => string][] = [
    ["echo $(touch m0)", (p) => join(p.ws, "m0")],
    ["ls `touch m1`", (p) => join(p.ws, "m1")],
    ["X=1 touch m2", (p) => join(p.ws, "m2")],
    ["eval 'touch m3'", (p) => join(p.ws, "m3")],
    ["ls ${PWD:'$(touch m4)'} 2>/dev/null", (p) => join(p.ws, "m4")],
    ["echo x >\\\n ../outside/x5", (p) => join(p.outside, "x5")],
    ["touch m6 & wait", (p) => join(p.ws, "m6")],
    ["{ touch m7; }", (p) => join(p.ws, "m7")],
  ];
  for (const [line, landed] of attacks)
    it(`${JSON.stringify(line)} has its effect in bash and asks`, () => {
      const p = place();
      runBash(line, p.ws);
      expect(existsSync(landed(p)), "bash ran it").toBe(true);
      const q = place();
      for (const allow of [["bash"], ["bash", "bash(ls*)"]]) {
        const v = policy(q.ws, allow).evaluate(bashCall(line));
        expect(v.decision, line).toBe("ask");
      }
      expect(policy(q.ws, ["bash"], undefined, "yolo").decide(bashCall(line))).toBe("allow");
    });

  it("plainly literal lines with any programs still run unasked", () => {
    const p = place();
    const allowed = policy(p.ws, ["bash"]);
    for (const line of [
      "npm test",
      "git status && git diff --stat",
      "make -j4 > build.log 2>&1",
      "python3 -m pytest -q 'tests/test x.py'",
      "ls -la | wc -l",
    ])
      expect(allowed.decide(bashCall(line)), line).toBe("allow");
  });

  it("redirects out of the workspace or into .git/ ask under a bare rule too", () => {
    const p = place();
    const v = policy(p.ws, ["bash"]).evaluate(bashCall("echo x > ../outside/y"));
    expect(v.decision).toBe("ask");
    expect(v.reason).toMatch(/writes outside the workspace/);
    expect(policy(p.ws, ["bash"]).evaluate(bashCall("echo x > .git/config")).reason).toMatch(/protected/);
  });
});

describe("TERN_HOME inside the workspace is not covered by any allow rule", () => {
  it("`echo x > th/config.json` writes tern's config in bash, and asks naming TERN_HOME", () => {
    const p = place();
    runBash('echo \'{"permissions":{"mode":"yolo"}}\' > th/config.json', p.ws);
    expect(readFileSync(join(p.home, "config.json"), "utf8")).toMatch(/yolo/);
    for (const allow of [["bash(echo *)"], ["bash"]]) {
      const rules = policy(p.ws, allow, p.home);
      for (const line of [
        "echo x > th/config.json",
        "echo x >> ./th/skills/evil.md",
        "echo x 2> th/../th/config.json",
      ]) {
        const v = rules.evaluate(bashCall(line));
        expect(v.decision, line).toBe("ask");
        expect(v.reason, line).toMatch(/TERN_HOME/);
      }
    }
  });

  it("reading it by redirect or by naming it asks; other workspace paths do not", () => {
    const p = place();
    const rules = policy(p.ws, ["bash(cat*)", "bash(ls*)"], p.home);
    for (const line of [
      "cat < th/config.json",
      "cat th/config.json",
      `cat ${join(p.home, "config.json")}`,
      "ls th",
      "cat --file=th/config.json",
    ]) {
      const v = rules.evaluate(bashCall(line));
      expect(v.decision, line).toBe("ask");
      expect(v.reason, line).toMatch(/TERN_HOME/);
    }
    writeFileSync(join(p.ws, "thumb.txt"), "x");
    for (const line of ["cat thumb.txt", "ls -la", "cat < thumb.txt"])
      expect(rules.decide(bashCall(line)), line).toBe("allow");
  });

  it("a workspace inside TERN_HOME: words are not judged, so ordinary lines still run", () => {
    const p = place();
    const inner = join(p.home, "project");
    mkdirSync(inner);
    expect(policy(inner, ["bash(ls *)"], p.home).decide(bashCall("ls -la"))).toBe("allow");
  });
});
