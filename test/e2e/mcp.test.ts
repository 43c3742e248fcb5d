// MCP tool sets through `tern run` (R-EXT): listed as <set>__<tool>, run with --yes,
// a call that never answers times out at timeoutSeconds as a tool error, a dead server is a notice.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { ternRun, toolMessages, useE2E, writeUserConfig } from "./tools-support.js";

const SERVER = join(import.meta.dirname, "..", "tools", "fixtures", "mcp-server.mjs");
const e = useE2E();

describe("MCP tool sets end to end", () => {
  it("lists, runs and times out MCP tools", async () => {
    writeUserConfig(e, {
      toolSets: [{ name: "fx", command: process.execPath, args: [SERVER], timeoutSeconds: 1 }],
    });
    e.provider.enqueue(
      openaiToolCalls([
        { id: "c1", name: "fx__echo", args: { text: "hello" } },
        { id: "c2", name: "fx__hang", args: {} },
      ]),
      openaiText("done"),
    );
    // fx__hang never answers: without its own 1 s timer the run would hang until it is killed (code null).
    const run = await ternRun(e, ["--yes"]);
    expect(run.code).toBe(0);
    const names = e.provider.requests[0].body.tools.map((t: any) => t.function.name);
    expect(names).toEqual(expect.arrayContaining(["fx__echo", "fx__hang", "fx__crash", "fx__bad", "bash"]));
    const echo = e.provider.requests[0].body.tools.find((t: any) => t.function.name === "fx__echo");
    expect(echo.function.parameters.properties.text.type).toBe("string");
    const sent = toolMessages(e.provider.requests[1].body);
    expect(sent).toEqual([
      { id: "c1", content: "echo: hello" },
      { id: "c2", content: "fx__hang timed out after 1s." },
    ]);
    expect(run.end).toMatchObject({ stop_reason: "completed", tool_calls: 2, tool_errors: 1 });
  });

  it("MCP calls need approval: without --yes they are denied", async () => {
    writeUserConfig(e, { toolSets: [{ name: "fx", command: process.execPath, args: [SERVER] }] });
    e.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "fx__echo", args: { text: "x" } }]),
      openaiText("ok"),
    );
    const run = await ternRun(e, []);
    expect(run.code).toBe(0);
    expect(toolMessages(e.provider.requests[1].body)[0].content).toMatch(/without --yes/);
  });

  it("a server that fails to start is a notice, not a crash", async () => {
    writeUserConfig(e, {
      toolSets: [
        { name: "broken", command: join(e.dirs.root, "no-such-binary"), args: [] },
        { name: "dies", command: process.execPath, args: ["-e", "process.exit(1)"] },
      ],
    });
    e.provider.enqueue(openaiText("still here"));
    const run = await ternRun(e, []);
    expect(run.code).toBe(0);
    const notices = run.events.filter((ev) => ev.type === "notice").map((ev) => ev.text);
    expect(notices.some((n) => n.includes("tool set 'broken' failed to start"))).toBe(true);
    expect(notices.some((n) => n.includes("tool set 'dies' failed to start"))).toBe(true);
    expect(e.provider.requests[0].body.tools.some((t: any) => t.function.name.includes("__"))).toBe(false);
  });
});
