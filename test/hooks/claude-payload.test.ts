// tern's calls in Claude Code's shapes and back (R-HOOK-2 amended), field for field as Claude
// Code's hooks reference and the Agent SDK's tool input types give them
// (code.claude.com/docs/en/hooks; code.claude.com/docs/en/agent-sdk/typescript "Tool Input Types").
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fromClaudeInput, toClaudeCall, toClaudeResponse } from "../../src/hooks/claude-payload.js";
import { matcherMatches, namesOf } from "../../src/hooks/match.js";

const cwd = mkdtempSync(join(tmpdir(), "tern-claude-payload-"));

describe("Claude Code's tool shapes", () => {
  it("names and arguments of every mapped tool", () => {
    expect(toClaudeCall("bash", { command: "ls", run_in_background: true }, cwd)).toEqual({
      name: "Bash",
      input: { command: "ls", run_in_background: true },
    });
    expect(toClaudeCall("task", { description: "d", prompt: "p", agent: "explore" }, cwd)).toEqual({
      name: "Task",
      input: { description: "d", prompt: "p", subagent_type: "explore" },
    });
    expect(toClaudeCall("web_fetch", { url: "http://x" }, cwd)).toEqual({
      name: "WebFetch",
      input: { url: "http://x", prompt: "" },
    });
    expect(toClaudeCall("todo_write", { todos: [{ content: "a", status: "pending" }] }, cwd).input).toEqual({
      todos: [{ content: "a", status: "pending", activeForm: "a" }],
    });
    expect(toClaudeCall("exit_plan", { plan: "1. x" }, cwd)).toEqual({
      name: "ExitPlanMode",
      input: { plan: "1. x" },
    });
    expect(toClaudeCall("job_output", { id: "j1" }, cwd)).toEqual({
      name: "BashOutput",
      input: { bash_id: "j1" },
    });
    expect(toClaudeCall("job_kill", { id: "j1" }, cwd)).toEqual({
      name: "KillShell",
      input: { shell_id: "j1" },
    });
    expect(toClaudeCall("glob", { pattern: "*.ts", path: "src" }, cwd).input).toEqual({
      pattern: "*.ts",
      path: join(cwd, "src"),
    });
    expect(toClaudeCall("github__create_issue", { title: "t" }, cwd)).toEqual({
      name: "mcp__github__create_issue",
      input: { title: "t" },
    });
    // No Claude Code counterpart: tern's name and arguments.
    expect(toClaudeCall("recall", { turn: 1 }, cwd)).toEqual({ name: "recall", input: { turn: 1 } });
  });

  it("edit_lineno is an Edit whose old_string is the lines it replaces", () => {
    writeFileSync(join(cwd, "f.txt"), "a\nb\nc\n");
    const call = toClaudeCall(
      "edit_lineno",
      { path: "f.txt", start_line: 2, end_line: 3, new_text: "X" },
      cwd,
    );
    expect(call).toEqual({
      name: "Edit",
      input: {
        file_path: join(cwd, "f.txt"),
        old_string: "b\nc",
        new_string: "X",
        start_line: 2,
        end_line: 3,
      },
    });
    const back = fromClaudeInput(
      "edit_lineno",
      { ...(call.input as object), new_string: "Y" },
      {
        path: "f.txt",
        start_line: 2,
        end_line: 3,
        new_text: "X",
      },
    );
    expect(back).toEqual({ path: join(cwd, "f.txt"), start_line: 2, end_line: 3, new_text: "Y" });
  });

  it("updatedInput maps back, keeping tern's own extras; Claude-only fields drop", () => {
    expect(
      fromClaudeInput("task", { subagent_type: "review", prompt: "p2" }, { description: "d", prompt: "p" }),
    ).toEqual({ description: "d", prompt: "p2", agent: "review" });
    expect(
      fromClaudeInput("bash", { command: "ls -a", description: "list", timeout: 5 }, { command: "ls" }),
    ).toEqual({
      command: "ls -a",
    });
    expect(
      fromClaudeInput("web_fetch", { url: "http://y", prompt: "sum" }, { url: "http://x", max_chars: 9 }),
    ).toEqual({
      url: "http://y",
      max_chars: 9,
    });
  });

  it("tool_response in Claude's shape", () => {
    expect(toClaudeResponse("bash", {}, { outcome: "ok", text: "hi" })).toEqual({
      stdout: "hi",
      stderr: "",
      interrupted: false,
      isImage: false,
    });
    expect(toClaudeResponse("glob", { path: "/w" }, { outcome: "ok", text: "a.ts\nb.ts" })).toEqual({
      matches: ["a.ts", "b.ts"],
      count: 2,
      search_path: "/w",
    });
    expect(toClaudeResponse("github__x", {}, { outcome: "ok", text: "r" })).toEqual([
      { type: "text", text: "r" },
    ]);
  });

  it("matchers: mcp__<server>__<tool> and mcp__<server>__.* fire on tern's MCP tool names", () => {
    expect(
      matcherMatches("mcp__github__create_issue", "github__create_issue", namesOf("github__create_issue")),
    ).toBe(true);
    expect(matcherMatches("mcp__github__.*", "github__create_issue", namesOf("github__create_issue"))).toBe(
      true,
    );
    expect(matcherMatches("mcp__memory__.*", "github__create_issue", namesOf("github__create_issue"))).toBe(
      false,
    );
    expect(matcherMatches("BashOutput", "job_output", namesOf("job_output"))).toBe(true);
    expect(matcherMatches("ExitPlanMode", "exit_plan", namesOf("exit_plan"))).toBe(true);
  });
});
