// MCP tools and permission rules through `tern run` (R-TOOL-2, R-EXT): deny rules written as
// `<set>__<tool>` or Claude-style `mcp__<set>__<tool>` hold even with --yes, with patterns and
// argument patterns; a denied call is outcome `denied` and the turn goes on; read-only tools
// run in auto-edit; `config check` warns about rules naming a set that does not exist.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { recordLines, ternRun, toolMessages, useE2E, writeUserConfig } from "./tools-support.js";

const SERVER = join(import.meta.dirname, "..", "tools", "fixtures", "mcp-server.mjs");
const e = useE2E();

function fsSet(calls: string) {
  return { name: "fs", command: process.execPath, args: [SERVER], env: { FIXTURE_CALLS_FILE: calls } };
}

function callsMade(file: string): string[] {
  return existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean) : [];
}

describe("MCP tools and rules end to end", () => {
  for (const rule of ["fs__write_file(*)", "mcp__fs__*", "mcp__fs__write_file", "fs__*(path=/etc/*)"]) {
    it(`deny ${rule} holds with --yes; the call is denied and the turn goes on`, async () => {
      const calls = join(e.dirs.root, "calls.txt");
      writeUserConfig(e, { toolSets: [fsSet(calls)], permissions: { deny: [rule] } });
      e.provider.enqueue(
        openaiToolCalls([{ id: "c1", name: "fs__write_file", args: { path: "/etc/passwd", content: "x" } }]),
        openaiText("carried on"),
      );
      const run = await ternRun(e, ["--yes"]);
      expect(run.code).toBe(0);
      expect(callsMade(calls)).toEqual([]);
      expect(toolMessages(e.provider.requests[1].body)).toEqual([
        { id: "c1", content: `denied by rule ${rule}` },
      ]);
      const result = recordLines(e).find((l) => l.type === "tool_result");
      expect(result).toMatchObject({ id: "c1", outcome: "denied" });
      expect(run.end).toMatchObject({ stop_reason: "completed" });
      expect(run.events.find((ev) => ev.type === "approval")).toEqual({
        type: "approval",
        id: "c1",
        decision: "denied",
      });
    });
  }

  it("an argument pattern only denies the calls it matches", async () => {
    const calls = join(e.dirs.root, "calls.txt");
    writeUserConfig(e, {
      toolSets: [fsSet(calls)],
      permissions: { deny: ["mcp__fs__write_file(path=/etc/*)"] },
    });
    e.provider.enqueue(
      openaiToolCalls([
        { id: "c1", name: "fs__write_file", args: { path: "/etc/hosts", content: "x" } },
        { id: "c2", name: "fs__write_file", args: { path: "notes.txt", content: "x" } },
      ]),
      openaiText("ok"),
    );
    const run = await ternRun(e, ["--yes"]);
    expect(run.code).toBe(0);
    expect(callsMade(calls)).toEqual(["write_file notes.txt"]);
    expect(toolMessages(e.provider.requests[1].body)).toEqual([
      { id: "c1", content: "denied by rule mcp__fs__write_file(path=/etc/*)" },
      { id: "c2", content: "wrote notes.txt" },
    ]);
  });

  it("allow rules in either naming let MCP calls run without --yes", async () => {
    const calls = join(e.dirs.root, "calls.txt");
    writeUserConfig(e, {
      toolSets: [fsSet(calls)],
      permissions: { allow: ["mcp__fs__echo", "fs__write_file(path=src/*)"] },
    });
    e.provider.enqueue(
      openaiToolCalls([
        { id: "c1", name: "fs__echo", args: { text: "hi" } },
        { id: "c2", name: "fs__write_file", args: { path: "src/a.ts", content: "x" } },
        { id: "c3", name: "fs__write_file", args: { path: "other/b.ts", content: "x" } },
      ]),
      openaiText("ok"),
    );
    const run = await ternRun(e, []);
    expect(run.code).toBe(0);
    const sent = toolMessages(e.provider.requests[1].body);
    expect(sent[0]).toEqual({ id: "c1", content: "echo: hi" });
    expect(sent[1]).toEqual({ id: "c2", content: "wrote src/a.ts" });
    expect(sent[2].content).toMatch(/without --yes/);
  });

  it("auto-edit runs a readOnlyHint tool without asking, and still asks for the others", async () => {
    const calls = join(e.dirs.root, "calls.txt");
    writeUserConfig(e, { toolSets: [fsSet(calls)], permissions: { mode: "auto-edit" } });
    e.provider.enqueue(
      openaiToolCalls([
        { id: "c1", name: "fs__peek", args: {} },
        { id: "c2", name: "fs__echo", args: { text: "x" } },
      ]),
      openaiText("ok"),
    );
    const run = await ternRun(e, []);
    expect(run.code).toBe(0);
    expect(callsMade(calls)).toEqual(["peek"]);
    const sent = toolMessages(e.provider.requests[1].body);
    expect(sent[0]).toEqual({ id: "c1", content: "peeked" });
    expect(sent[1].content).toMatch(/without --yes/);
  });

  it("config check warns about a rule naming a tool set that does not exist", async () => {
    writeUserConfig(e, {
      toolSets: [{ name: "fs", command: process.execPath, args: [SERVER] }],
      permissions: { deny: ["fss__write_file(*)", "mcp__ghost__*", "fs__write_file(*)", "bash(rm *)"] },
    });
    const out = await e.run(["config", "check"]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(
      `permissions.deny rule "fss__write_file(*)" names tool set 'fss', which no toolSets entry defines: it matches nothing`,
    );
    expect(out.stdout).toContain(`permissions.deny rule "mcp__ghost__*" names tool set 'ghost'`);
    expect(out.stdout).not.toContain(`"fs__write_file(*)" names`);
    expect(out.stdout).not.toContain(`"bash(rm *)" names`);
  });
});
