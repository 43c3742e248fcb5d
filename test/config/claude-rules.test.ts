// Claude Code permission rules → tern's rules (R-WF-5), case by case from Claude Code's
// permissions page (code.claude.com/docs/en/permissions, "Permission rule syntax" and the path
// pattern table: `//path`, `~/path`, `/path`, `path` / `./path`).
import { describe, expect, it } from "vitest";
import { type ClaudeRuleContext, mapClaudeRule } from "../../src/config/claude-rules.js";

const ctx: ClaudeRuleContext = { cwd: "/w/proj", root: "/w/proj", home: "/home/u" };
const map = (rule: string, c = ctx) => mapClaudeRule(rule, c);

describe("Claude Code permission rules", () => {
  it("Bash: bare, exact, the :* prefix form and a trailing ' *'", () => {
    expect(map("Bash")).toEqual({ rules: ["bash"] });
    expect(map("Bash(npm run build)")).toEqual({ rules: ["bash(npm run build)"] });
    expect(map("Bash(npm run test:*)")).toEqual({ rules: ["bash(npm run test)", "bash(npm run test *)"] });
    expect(map("Bash(git diff *)")).toEqual({ rules: ["bash(git diff)", "bash(git diff *)"] });
    expect(map("Bash(*)")).toEqual({ rules: ["bash"] });
  });

  it("Read covers every reading tool, Edit every editing one; paths anchor as Claude Code's do", () => {
    expect(map("Read(./.env)")).toEqual({ rules: ["read_file(.env)", "grep(.env)", "glob(.env)"] });
    // No slash: gitignore matches it in any folder.
    expect(map("Read(.env)")).toEqual({
      rules: [
        "read_file(.env)",
        "read_file(**/.env)",
        "grep(.env)",
        "grep(**/.env)",
        "glob(.env)",
        "glob(**/.env)",
      ],
    });
    expect(map("Read(./**/secrets/**)")).toEqual({
      rules: ["read_file(**/secrets/**)", "grep(**/secrets/**)", "glob(**/secrets/**)"],
    });
    expect(map("Read(~/.ssh/**)")).toEqual({
      rules: ["read_file(/home/u/.ssh/**)", "grep(/home/u/.ssh/**)", "glob(/home/u/.ssh/**)"],
    });
    expect(map("Read(//etc/passwd)")).toEqual({
      rules: ["read_file(/etc/passwd)", "grep(/etc/passwd)", "glob(/etc/passwd)"],
    });
    expect(map("Edit(src/**)")).toEqual({
      rules: ["edit_file(src/**)", "edit_lineno(src/**)", "write_file(src/**)"],
    });
    // `/path` is relative to the folder holding the settings file's .claude.
    expect(map("Edit(/docs/**)", { ...ctx, root: "/home/u" })).toEqual({
      rules: ["edit_file(/home/u/docs/**)", "edit_lineno(/home/u/docs/**)", "write_file(/home/u/docs/**)"],
    });
    expect(map("Edit(/src/**/*.ts)")).toEqual({
      rules: ["edit_file(src/**/*.ts)", "edit_lineno(src/**/*.ts)", "write_file(src/**/*.ts)"],
    });
    // apply_patch writes and edits files too (R-EDIT-1): Claude's Write and Edit rules cover it.
    expect(map("Write")).toEqual({ rules: ["write_file", "apply_patch"] });
    expect(map("Edit")).toEqual({ rules: ["edit_file", "edit_lineno", "write_file"] });
  });

  it("WebFetch by domain, MCP servers and tools, Task by agent, the rest of the table by name", () => {
    expect(map("WebFetch")).toEqual({ rules: ["web_fetch"] });
    expect(map("WebFetch(domain:example.com)")).toEqual({ rules: ["web_fetch(example.com)"] });
    expect(map("mcp__github")).toEqual({ rules: ["mcp__github"] });
    expect(map("mcp__github__create_issue")).toEqual({ rules: ["mcp__github__create_issue"] });
    expect(map("Task(explore)")).toEqual({ rules: ["task(explore)"] });
    expect(map("BashOutput")).toEqual({ rules: ["job_output"] });
    expect(map("KillShell")).toEqual({ rules: ["job_kill"] });
  });

  it("what tern cannot map says why", () => {
    expect(map("WebSearch")).toEqual({ problem: "tern has no tool like Claude Code's WebSearch" });
    expect(map("NotebookEdit(x.ipynb)")).toEqual({
      problem: "tern has no tool like Claude Code's NotebookEdit",
    });
    expect(map("WebFetch(https://x.com)")).toMatchObject({ problem: expect.stringContaining("domain:") });
    expect(map("Read(~/x)", { ...ctx, home: undefined })).toMatchObject({
      problem: expect.stringContaining("HOME"),
    });
  });
});
