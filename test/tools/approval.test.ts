import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApprovalPolicy, type ApprovalCall } from "../../src/tools/policy/approval.js";
import {
  bashAllowMatches,
  bashDenyMatches,
  parseRule,
  simpleCommands,
} from "../../src/tools/policy/rules.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { bashCall as bash, writeCall as write } from "./helpers.js";

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

const read = (path: string): ApprovalCall => ({
  name: "read_file",
  args: { path },
  kind: "read",
  paths: [path],
});
const mcp: ApprovalCall = { name: "files__list", args: {}, kind: "mcp", paths: [] };
const policy = (mode: "ask" | "auto-edit" | "yolo", allow: string[] = [], deny: string[] = []) =>
  new ApprovalPolicy({ mode, allow, deny, cwd: dirs.workspace });

describe("rules", () => {
  it("parses tool and tool(pattern), rejects junk", () => {
    expect(parseRule("bash(git status*)")).toEqual({
      text: "bash(git status*)",
      tool: "bash",
      pattern: "git status*",
    });
    expect(parseRule("read_file")).toEqual({ text: "read_file", tool: "read_file", pattern: null });
    expect(parseRule("bash()")).toBeNull();
    expect(parseRule("not a rule(")).toBeNull();
  });

  it("splits simple commands on ; && || | & and newlines", () => {
    expect(simpleCommands("git status; rm -rf ~")).toEqual(["git status", "rm -rf ~"]);
    expect(simpleCommands("a && b || c | d & e\nf")).toEqual(["a", "b", "c", "d", "e", "f"]);
    expect(simpleCommands("echo 'a;b' # c; rm x")).toEqual(["echo a;b"]);
  });

  it("allow needs every simple command to match and no substitution", () => {
    expect(bashAllowMatches("git status*", "git status")).toBe(true);
    expect(bashAllowMatches("git status*", "git  status -s && git status")).toBe(true);
    expect(bashAllowMatches("git status*", "git status; rm -rf ~")).toBe(false);
    expect(bashAllowMatches("git status*", "git status\nrm -rf ~")).toBe(false);
    expect(bashAllowMatches("git status*", "git status | sh")).toBe(false);
    expect(bashAllowMatches("echo *", "echo $(rm -rf ~)")).toBe(false);
    expect(bashAllowMatches("echo *", "echo `rm -rf ~`")).toBe(false);
    expect(bashAllowMatches("cat *", "cat <(rm -rf ~)")).toBe(false);
  });

  it("deny matches when any simple command matches, inside substitutions too", () => {
    expect(bashDenyMatches("rm *", "git status; rm -rf ~")).toBe(true);
    expect(bashDenyMatches("rm *", "echo $(rm -rf ~)")).toBe(true);
    expect(bashDenyMatches("rm *", "echo `rm x`")).toBe(true);
    expect(bashDenyMatches("rm *", "git status")).toBe(false);
  });
});

describe("ApprovalPolicy (R-TOOL-2)", () => {
  it("judges job_input's text as a bash command (R-JOB-1): bash rules allow and deny it", () => {
    const input = (text: string): ApprovalCall => ({
      name: "job_input",
      args: { id: "job-1", text },
      kind: "shell",
      paths: [],
    });
    expect(policy("ask").decide(input("ls\n"))).toBe("ask");
    expect(policy("ask", ["bash(ls)"]).decide(input("ls"))).toBe("allow");
    expect(policy("yolo", [], ["bash(rm *)"]).decide(input("rm -rf ~\n"))).toBe("deny");
    expect(policy("yolo").decide(input("rm -rf ~\n"))).toBe("allow");
  });

  it("applies the mode classes", () => {
    for (const mode of ["ask", "auto-edit", "yolo"] as const) {
      const p = policy(mode);
      expect(p.decide(read("a.txt"))).toBe("allow");
      expect(p.decide({ name: "todo_write", args: {}, kind: "read", paths: [] })).toBe("allow");
    }
    expect(policy("ask").decide(write("a.txt"))).toBe("ask");
    expect(policy("auto-edit").decide(write("a.txt"))).toBe("allow");
    expect(policy("ask").decide(bash("ls"))).toBe("ask");
    expect(policy("auto-edit").decide(bash("ls"))).toBe("ask");
    expect(policy("auto-edit").decide(mcp)).toBe("ask");
    expect(policy("yolo").decide(bash("ls"))).toBe("allow");
    expect(policy("yolo").decide(mcp)).toBe("allow");
  });

  it("allow rules: bash command globs and picomatch path globs", () => {
    const p = policy("ask", ["bash(git status*)", "write_file(src/**)", "files__*"]);
    expect(p.decide(bash("git status -s"))).toBe("allow");
    expect(p.decide(bash("git status; rm -rf ~"))).toBe("ask");
    expect(p.decide(write("src/deep/a.ts"))).toBe("allow");
    expect(p.decide(write("lib/a.ts"))).toBe("ask");
    expect(p.decide(mcp)).toBe("allow");
  });

  it("deny wins over allow, grants, auto-edit and yolo", () => {
    const p = policy(
      "ask",
      ["bash", "write_file"],
      ["bash(rm *)", "write_file(.env)", "read_file(secrets/**)"],
    );
    expect(p.evaluate(bash("ls; rm -rf x"))).toEqual({ decision: "deny", rule: "bash(rm *)" });
    expect(p.decide(bash("ls"))).toBe("allow");
    expect(p.decide(write(".env"))).toBe("deny");
    expect(p.decide(read("secrets/key"))).toBe("deny");
    p.grantAlways(bash("rm x"));
    expect(p.decide(bash("rm x"))).toBe("deny");
    p.setMode("yolo");
    expect(p.decide(bash("rm x"))).toBe("deny");
    p.setMode("ask");
    p.setYoloOnce(true);
    expect(p.decide(write(".env"))).toBe("deny");
  });

  it("writes outside the workspace ask in every mode but yolo, even with a matching allow rule", () => {
    const outside = join(dirs.root, "elsewhere.txt");
    const p = policy("auto-edit", ["write_file", `write_file(${dirs.root}/**)`]);
    const v = p.evaluate(write(outside));
    expect(v.decision).toBe("ask");
    expect(v.reason).toContain(outside);
    expect(p.decide(write("../x.txt"))).toBe("ask");
    expect(p.decide(write("inside.txt"))).toBe("allow");
    expect(policy("yolo").decide(write(outside))).toBe("allow");
    // Reading outside is read-only and runs.
    expect(p.decide(read(outside))).toBe("allow");
  });

  it("sees through a symlink that leads outside the workspace", () => {
    mkdirSync(join(dirs.root, "out"));
    symlinkSync(join(dirs.root, "out"), join(dirs.workspace, "link"));
    const p = policy("auto-edit");
    expect(p.decide(write("link/file.txt"))).toBe("ask");
  });

  it("grants: always for this path, or for the tool when it names no path", () => {
    const p = policy("ask");
    p.grantAlways(write("a.txt"));
    expect(p.decide(write("a.txt"))).toBe("allow");
    expect(p.decide(write("b.txt"))).toBe("ask");
    const outside = join(dirs.root, "o.txt");
    p.grantAlways(write(outside));
    expect(p.decide(write(outside))).toBe("allow");
    p.grantAlways(bash("make"));
    expect(p.decide(bash("make test"))).toBe("allow");
    expect(p.decide(mcp)).toBe("ask");
  });

  it("yolo once covers until switched off", () => {
    const p = policy("ask");
    p.setYoloOnce(true);
    expect(p.decide(bash("ls"))).toBe("allow");
    p.setYoloOnce(false);
    expect(p.decide(bash("ls"))).toBe("ask");
  });

  it("refuses an invalid rule at construction", () => {
    expect(() => policy("ask", [], ["bash("])).toThrow(/permissions.deny: invalid rule/);
  });
});
