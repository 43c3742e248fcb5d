// Tools present their own calls (title, kind, files, preview), so no front end switches on tool
// names: each built-in's presentation, the default for a tool without one (MCP), arguments that
// are not JSON, and a presenter that trips over odd arguments.
import { describe, expect, it } from "vitest";
import { builtinTools } from "../../src/tools/builtin/all.js";
import { presentCall } from "../../src/tools/present.js";
import type { Tool } from "../../src/tools/types.js";

const tool = (name: string) => builtinTools.find((t) => t.name === name)!;
const present = (name: string, args: unknown) => presentCall(tool(name), JSON.stringify(args));

describe("call presentations", () => {
  it("each built-in says what its call does, in its own words", () => {
    expect(present("bash", { command: "npm test" })).toEqual({
      title: "npm test",
      kind: "execute",
      locations: [],
      preview: { type: "command", command: "npm test" },
    });
    expect(
      present("edit_file", { path: "a.ts", old_string: "x", new_string: "y", replace_all: true }),
    ).toEqual({
      title: "a.ts (all occurrences)",
      kind: "edit",
      locations: [{ path: "a.ts" }],
      preview: { type: "diff", before: "x", after: "y" },
    });
    expect(present("write_file", { path: "n.txt", content: "1\n2\n" })).toMatchObject({
      title: "n.txt (2 lines)",
      preview: { type: "text", text: "1\n2\n", line: 1 },
    });
    expect(present("edit_lineno", { path: "b.ts", start_line: 3, end_line: 4, new_text: "z" })).toMatchObject(
      {
        title: "b.ts:3-4",
        locations: [{ path: "b.ts", line: 3 }],
        preview: { type: "text", line: 3, note: "replaces lines 3-4 with:" },
      },
    );
    expect(present("read_file", { path: "c.ts", offset: 10, limit: 5 })).toEqual({
      title: "c.ts:10-14",
      kind: "read",
      locations: [{ path: "c.ts", line: 10 }],
    });
    expect(present("grep", { pattern: "TODO", path: "src", glob: "*.ts" }).title).toBe("TODO in src (*.ts)");
    expect(present("glob", { pattern: "**/*.md" })).toMatchObject({ title: "**/*.md", kind: "search" });
    expect(present("web_fetch", { url: "https://x.org" })).toMatchObject({
      title: "https://x.org",
      kind: "fetch",
    });
    expect(present("todo_write", { todos: [{}, {}] })).toMatchObject({ title: "2 items", kind: "think" });
    expect(present("recall", { turn: 2, round: 1 })).toMatchObject({ title: "turn 2 round 1", kind: "read" });
  });

  it("a tool without a presenter shows its arguments, strings first; bad JSON says so", () => {
    const mcp = { name: "fx__find", kind: "mcp" } as Tool;
    expect(presentCall(mcp, '{"n":3,"q":"find me"}')).toEqual({
      title: "q=find me n=3",
      kind: "other",
      locations: [],
    });
    expect(presentCall(undefined, "{not json")).toEqual({
      title: "(arguments are not valid JSON)",
      kind: "other",
      locations: [],
    });
    expect(presentCall(tool("bash"), "[1]").title).toBe("(arguments are not valid JSON)");
  });

  it("a presenter that throws leaves the default, never a lost call", () => {
    const odd = {
      name: "odd",
      kind: "read",
      present: () => {
        throw new Error("boom");
      },
    } as unknown as Tool;
    expect(presentCall(odd, '{"path":"x"}')).toEqual({
      title: "path=x",
      kind: "read",
      locations: [{ path: "x" }],
    });
  });
});
