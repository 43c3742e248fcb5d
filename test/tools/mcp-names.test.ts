// MCP names and rules (R-EXT, R-TOOL-2): model-facing names within 64 characters and unique;
// rules match `<set>__<tool>`, `mcp__<set>__<tool>` and `mcp__<set>`, with argument patterns;
// `readOnlyHint` tools run in auto-edit.
import { describe, expect, it } from "vitest";
import { ApprovalPolicy, type ApprovalCall } from "../../src/tools/policy/approval.js";
import { exposedToolName, mcpArgsMatch } from "../../src/tools/mcp/mcp-names.js";

const call = (tool: string, args: unknown, readOnly = false): ApprovalCall => ({
  name: `fs__${tool}`,
  args,
  kind: "mcp",
  paths: [],
  mcp: { set: "fs", tool, readOnly },
});

const policy = (over: { mode?: "ask" | "auto-edit" | "yolo"; allow?: string[]; deny?: string[] }) =>
  new ApprovalPolicy({
    mode: over.mode ?? "ask",
    allow: over.allow ?? [],
    deny: over.deny ?? [],
    cwd: "/ws",
  });

describe("MCP tool names", () => {
  it("keeps a plain short name and makes changed or long names distinct and stable", () => {
    expect(exposedToolName("fs", "read_file", new Set())).toBe("fs__read_file");
    const long = "x".repeat(70);
    const a = exposedToolName("fs", `${long}_one`, new Set());
    const b = exposedToolName("fs", `${long}_two`, new Set([a]));
    expect(a).toHaveLength(64);
    expect(b).toHaveLength(64);
    expect(a).not.toBe(b);
    expect(exposedToolName("fs", `${long}_one`, new Set())).toBe(a);
    // Replaced characters cannot collide with a real name either.
    expect(exposedToolName("fs", "a.b", new Set())).not.toBe("fs__a_b");
    expect(exposedToolName("fs", "a.b", new Set())).toMatch(/^fs__a_b_[0-9a-f]{8}$/);
    // A name already taken (a built-in, another set) gets another.
    expect(exposedToolName("fs", "x", new Set(["fs__x"]))).toMatch(/^fs__x_[0-9a-f]{8}$/);
  });
});

describe("MCP rules", () => {
  it("argument patterns: *, key=glob, any value for deny, every value for allow", () => {
    expect(mcpArgsMatch("*", {}, "deny")).toBe(true);
    expect(mcpArgsMatch("path=/etc/*", { path: "/etc/passwd" }, "deny")).toBe(true);
    expect(mcpArgsMatch("path=/etc/*", { path: "src/a" }, "deny")).toBe(false);
    expect(mcpArgsMatch("*secret*", { a: "x", b: { c: ["my secret"] } }, "deny")).toBe(true);
    expect(mcpArgsMatch("src/*", { path: "src/a", content: "x" }, "allow")).toBe(false);
    expect(mcpArgsMatch("src/*", { path: "src/a", also: "src/b" }, "allow")).toBe(true);
  });

  it("an allow pattern never covers a path argument that climbs out with ..", () => {
    for (const rule of ["fs__write_file(path=src/*)", 'mcp__fs__write_file({"path":"src/*)'])
      for (const path of ["src/../../etc/passwd", "src/..", "src\\..\\x"]) {
        const p = policy({ mode: "ask", allow: [rule] });
        expect(p.decide(call("write_file", { path, content: "x" })), `${rule} ${path}`).toBe("ask");
      }
    const p = policy({ mode: "ask", allow: ["fs__write_file(path=src/*)"] });
    expect(p.decide(call("write_file", { path: "src/a..b/c.ts" }))).toBe("allow");
    // A bare rule (no pattern) names the whole tool, whatever its arguments.
    expect(
      policy({ mode: "ask", allow: ["fs__write_file"] }).decide(call("write_file", { path: "../x" })),
    ).toBe("allow");
  });

  it.each([
    "fs__write_file",
    "fs__write_file(*)",
    "mcp__fs__write_file",
    "mcp__fs__write_file(*)",
    "mcp__fs__*",
    "mcp__fs",
    "fs__*",
    "fs__write_file(path=/etc/*)",
  ])("deny %s matches fs__write_file and wins over --yes (yolo)", (rule) => {
    const p = policy({ mode: "yolo", deny: [rule] });
    expect(p.evaluate(call("write_file", { path: "/etc/x", content: "y" }))).toEqual({
      decision: "deny",
      rule,
    });
  });

  it.each(["fs__read_file", "mcp__other__*", "fs__write_file(path=src/*)", "bash(*)"])(
    "deny %s does not match fs__write_file(/etc/x)",
    (rule) => {
      const p = policy({ mode: "yolo", deny: [rule] });
      expect(p.decide(call("write_file", { path: "/etc/x" }))).toBe("allow");
    },
  );

  it("allow rules in both namings; MCP tools ask otherwise", () => {
    expect(policy({ allow: ["mcp__fs__echo"] }).decide(call("echo", { text: "x" }))).toBe("allow");
    expect(policy({ allow: ["fs__echo(*)"] }).decide(call("echo", { text: "x" }))).toBe("allow");
    expect(policy({}).decide(call("echo", { text: "x" }))).toBe("ask");
  });

  it("readOnlyHint runs without asking in auto-edit only", () => {
    expect(policy({ mode: "auto-edit" }).decide(call("peek", {}, true))).toBe("allow");
    expect(policy({ mode: "auto-edit" }).decide(call("echo", {}, false))).toBe("ask");
    expect(policy({ mode: "ask" }).decide(call("peek", {}, true))).toBe("ask");
    expect(policy({ mode: "auto-edit", deny: ["fs__peek"] }).decide(call("peek", {}, true))).toBe("deny");
  });
});
