// The hook protocol as Claude Code defines it (R-HOOK-2/3): exit codes, JSON output, matchers
// over tern's and Claude Code's tool names, and how several hooks' answers combine.
import { describe, expect, it } from "vitest";
import { matcherError, matcherMatches, namesOf } from "../../src/hooks/match.js";
import { combine, interpret } from "../../src/hooks/protocol.js";

const run = (exit: number | null, stdout = "", stderr = "", timedOut = false) => ({
  exit,
  stdout,
  stderr,
  timedOut,
});

describe("interpret", () => {
  it("exit 2 blocks with stderr and ignores stdout; other exits are non-blocking errors", () => {
    expect(interpret("PreToolUse", run(2, '{"decision":"approve"}', "no\n"), 60)).toEqual({
      label: "block",
      block: "no",
    });
    expect(interpret("PostToolUse", run(1, "", "boom"), 60)).toEqual({
      label: "error",
      message: "failed with exit 1: boom",
    });
    expect(interpret("Stop", run(null, "", "", true), 5).message).toContain("timed out after 5s");
  });

  it("plain stdout is context only for UserPromptSubmit and SessionStart", () => {
    expect(interpret("UserPromptSubmit", run(0, "extra\n"), 60)).toEqual({ label: "none", context: "extra" });
    expect(interpret("SessionStart", run(0, "git: clean"), 60).context).toBe("git: clean");
    expect(interpret("PreToolUse", run(0, "chatter"), 60)).toEqual({ label: "none" });
  });

  it("reads permissionDecision, updatedInput, additionalContext, continue and the older approve/block", () => {
    const deny = interpret(
      "PreToolUse",
      run(
        0,
        JSON.stringify({
          hookSpecificOutput: {
            hookEventName: "PreToolUse",
            permissionDecision: "deny",
            permissionDecisionReason: "nope",
          },
        }),
      ),
      60,
    );
    expect(deny).toMatchObject({ label: "deny", permission: "deny", block: "nope" });
    const updated = interpret(
      "PreToolUse",
      run(
        0,
        JSON.stringify({
          hookSpecificOutput: {
            hookEventName: "PreToolUse",
            permissionDecision: "ask",
            updatedInput: { command: "ls" },
          },
        }),
      ),
      60,
    );
    expect(updated).toMatchObject({ label: "ask", permission: "ask", updatedInput: { command: "ls" } });
    expect(interpret("PreToolUse", run(0, '{"decision":"approve","reason":"ok"}'), 60)).toMatchObject({
      permission: "allow",
    });
    expect(interpret("PreToolUse", run(0, '{"decision":"block","reason":"r"}'), 60)).toMatchObject({
      permission: "deny",
      block: "r",
    });
    expect(interpret("Stop", run(0, '{"decision":"block","reason":"tests fail"}'), 60)).toMatchObject({
      label: "block",
      block: "tests fail",
    });
    expect(
      interpret(
        "PostToolUse",
        run(0, JSON.stringify({ hookSpecificOutput: { additionalContext: "lint: 2 warnings" } })),
        60,
      ).context,
    ).toBe("lint: 2 warnings");
    expect(interpret("Stop", run(0, '{"continue":false,"stopReason":"enough"}'), 60)).toMatchObject({
      label: "stop",
      stop: "enough",
    });
  });

  it("combines side-by-side hooks: deny beats ask beats allow, every block and context kept", () => {
    const combined = combine([
      { label: "allow", permission: "allow" },
      { label: "ask", permission: "ask", reason: "check" },
      { label: "none", context: "a" },
      { label: "block", block: "b1" },
      { label: "none", context: "c" },
    ]);
    expect(combined).toMatchObject({ permission: "deny", block: "b1", context: ["a", "c"] });
    expect(
      combine([
        { label: "allow", permission: "allow" },
        { label: "ask", permission: "ask", reason: "r" },
      ]),
    ).toMatchObject({
      permission: "ask",
      reason: "r",
    });
  });
});

describe("matchers", () => {
  it("match tern's names and Claude Code's, exactly for simple names, as a regex otherwise", () => {
    expect(matcherMatches("Bash", "bash", namesOf("bash"))).toBe(true);
    expect(matcherMatches("Edit|Write", "edit_lineno", namesOf("edit_lineno"))).toBe(true);
    expect(matcherMatches("Edit", "write_file", namesOf("write_file"))).toBe(false);
    expect(matcherMatches("Bas", "bash", namesOf("bash"))).toBe(false);
    expect(matcherMatches("mcp__github__.*", "mcp__github__create_issue")).toBe(true);
    expect(matcherMatches("", "anything")).toBe(true);
    expect(matcherMatches("*", "anything")).toBe(true);
    expect(matcherError("(")).toMatch(/not a valid regular expression/);
    expect(matcherError("Notebook.*")).toBeUndefined();
  });
});
