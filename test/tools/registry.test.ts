import { describe, expect, it } from "vitest";
import { readFileTool } from "../../src/tools/builtin/read-file.js";
import { bashTool } from "../../src/tools/builtin/bash.js";
import { lspTool } from "../../src/tools/builtin/lsp.js";
import { todoWriteTool } from "../../src/tools/builtin/todo-write.js";
import { createBuiltinRegistry } from "../../src/tools/index.js";
import { offeredInMode } from "../../src/tools/policy/mode-offer.js";
import { parseArguments, ToolRegistry, unknownToolResult } from "../../src/tools/registry.js";
import { textOf } from "./helpers.js";

describe("ToolRegistry", () => {
  it("registers every built-in with its fixed name and compact JSON schemas", () => {
    const reg = createBuiltinRegistry();
    expect(reg.names()).toEqual([
      "bash",
      "read_file",
      "write_file",
      "edit_file",
      "edit_lineno",
      "apply_patch",
      "grep",
      "glob",
      "lsp",
      "todo_write",
      "recall",
      "web_fetch",
      "job_output",
      "job_input",
      "job_kill",
      "exit_plan",
      "task",
    ]);
    const defs = reg.definitions();
    const read = defs.find((d) => d.name === "read_file")!;
    expect(read.parameters).toEqual({
      type: "object",
      required: ["path"],
      properties: { path: { type: "string" }, offset: { type: "integer" }, limit: { type: "integer" } },
    });
    const json = JSON.stringify(defs);
    expect(json).not.toContain("$schema");
    expect(json).not.toContain("9007199254740991");
    // Sent schemas carry no minLength: 1 and no lower bound of 0 or 1 (bytes in every request); the
    // tool still refuses "" and 0 with a clear result.
    expect(json).not.toContain("minLength");
    expect(json).not.toMatch(/"(minimum|exclusiveMinimum)":[01]\b/);
    const empty = parseArguments(bashTool, '{"command": ""}');
    expect(!empty.ok && textOf(empty.result)).toMatch(/Invalid arguments for bash: command: /);
    const zero = parseArguments(readFileTool, '{"path": "a", "offset": 0}');
    expect(!zero.ok && textOf(zero.result)).toMatch(/Invalid arguments for read_file: offset: /);
    // What a description states is sent once: lsp's operations, the fields of edits and todos
    // are in words only; the zod schema still checks them and names what is allowed.
    const props = (name: string) =>
      (defs.find((d) => d.name === name)!.parameters as { properties: Record<string, unknown> }).properties;
    expect(props("lsp").operation).toEqual({ type: "string" });
    expect(props("edit_file").edits).toEqual({ type: "array", items: { type: "object" } });
    expect(props("todo_write").todos).toEqual({ type: "array", items: { type: "object" } });
    expect(props("job_output").timeout_seconds).toEqual({ type: "number", maximum: 600 });
    const bad = parseArguments(lspTool, '{"operation": "goto"}');
    expect(!bad.ok && textOf(bad.result)).toMatch(/operation: .*"diagnostics"/);
    const todo = parseArguments(todoWriteTool, '{"todos": [{"content": "x", "status": "done"}]}');
    expect(!todo.ok && textOf(todo.result)).toMatch(/todos\.0\.status/);
    const edit = defs.find((d) => d.name === "edit_file")!;
    expect(Object.keys((edit.parameters as { properties: object }).properties)).toEqual([
      "path",
      "old_string",
      "new_string",
      "replace_all",
      "edits",
    ]);
    // What the default mode offers (no exit_plan: mode-offer.ts; no recall before a compaction:
    // recall-offer.ts) must stay small: it goes out with every request (the first request's goal is
    // ≤ 5.5 KB, system prompt and provider wrapping included; 7,500 here before the descriptions were
    // cut to purpose, arguments and limits, 4,300 after the second cut; the session adds its agents
    // to task's description). A session offers apply_patch (its description in Codex's own words) or
    // edit_file with edit_lineno, never both (R-EDIT-1).
    const inMode = (mode: "ask" | "plan") => {
      const r = createBuiltinRegistry();
      r.offerOnly((tool) => offeredInMode(mode, tool));
      return r.definitions();
    };
    const offered = (without: string[]) =>
      JSON.stringify(inMode("ask").filter((d) => !["recall", ...without].includes(d.name))).length;
    expect(offered(["apply_patch"])).toBeLessThan(4300);
    expect(offered(["edit_file", "edit_lineno"])).toBeLessThan(5000);
    // Plan mode offers what it runs: reads, bash, exit_plan (R-PLAN-1).
    expect(inMode("plan").map((d) => d.name)).toEqual([
      "bash",
      "read_file",
      "grep",
      "glob",
      "lsp",
      "todo_write",
      "recall",
      "exit_plan",
      "task",
    ]);
  });

  it("sends a tool's own jsonSchema when it has one", () => {
    const reg = createBuiltinRegistry();
    reg.register({
      ...readFileTool,
      name: "x__y",
      jsonSchema: { type: "object", properties: { q: { type: "string" } } },
    });
    expect(reg.definitions().at(-1)!.parameters).toEqual({
      type: "object",
      properties: { q: { type: "string" } },
    });
    expect(() => reg.register(readFileTool)).toThrow(/already registered/);
  });
});

describe("parseArguments (R-TOOL-5)", () => {
  it("quotes invalid JSON and says arguments must be a JSON object", () => {
    const r = parseArguments(readFileTool, '{"path": "a.txt"');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.result.outcome).toBe("error");
      expect(textOf(r.result)).toMatch(/not valid JSON/);
      expect(textOf(r.result)).toContain('{"path": "a.txt"');
      expect(textOf(r.result)).toContain("must be a JSON object");
    }
    const huge = parseArguments(readFileTool, `{${"x".repeat(10000)}`);
    expect(!huge.ok && textOf(huge.result).length < 2500).toBe(true);
    const arr = parseArguments(readFileTool, "[1]");
    expect(!arr.ok && textOf(arr.result)).toMatch(/must be a JSON object/);
  });

  it("reports schema violations briefly and accepts valid arguments", () => {
    const r = parseArguments(readFileTool, '{"path": 3, "offset": 0}');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      const text = textOf(r.result);
      expect(text).toMatch(/^Invalid arguments for read_file: path: .*; offset: /);
      expect(text.split("\n").length).toBeLessThanOrEqual(2);
    }
    expect(parseArguments(readFileTool, '{"path":"a","limit":5}')).toEqual({
      ok: true,
      args: { path: "a", limit: 5 },
    });
  });

  it("treats empty arguments as {}", () => {
    const r = parseArguments(readFileTool, "");
    expect(!r.ok && textOf(r.result)).toMatch(/path/);
  });

  it("lists the available tools for an unknown name", () => {
    const r = unknownToolResult("nope", ["bash", "read_file"]);
    expect(r).toEqual({
      outcome: "error",
      content: [{ type: "text", text: "Unknown tool 'nope'. Available tools: bash, read_file." }],
    });
  });
});

describe("ToolRegistry: tools whose code loads on first use", () => {
  const def = (name: string) => ({
    name,
    description: `the ${name} tool`,
    kind: "read" as const,
    jsonSchema: { type: "object", properties: {} },
  });

  it("names and describes them before loading, loads once at ready(), and keeps their order", async () => {
    let loads = 0;
    const reg = new ToolRegistry();
    reg.registerDeferred([def("a_tool"), def("read_file")], async () => {
      loads++;
      return [{ ...readFileTool, name: "a_tool" }, readFileTool];
    });
    expect(reg.names()).toEqual(["a_tool", "read_file"]);
    const before = reg.definitions();
    expect(before.map((d) => d.description)).toEqual(["the a_tool tool", "the read_file tool"]);
    expect(() => reg.get("read_file")!.run({ path: "x" }, {} as never)).toThrow(/before ToolRegistry.ready/);
    await Promise.all([reg.ready(), reg.ready()]);
    await reg.ready();
    expect(loads).toBe(1);
    expect(reg.get("read_file")).toBe(readFileTool);
    expect(reg.names()).toEqual(["a_tool", "read_file"]);
    // Requests go on sending exactly what they sent before the code loaded.
    expect(reg.definitions()).toEqual(before);
  });

  it("a loader that leaves a named tool without code fails ready() naming it", async () => {
    const reg = new ToolRegistry();
    reg.registerDeferred([def("ghost")], async () => []);
    await expect(reg.ready()).rejects.toThrow(/ghost/);
  });

  it("the built-in registry runs a tool after ready(), as the executor does", async () => {
    const reg = createBuiltinRegistry();
    await reg.ready();
    const parsed = parseArguments(reg.get("read_file")!, '{"path":"nowhere.txt"}');
    expect(parsed.ok).toBe(true);
  });
});
