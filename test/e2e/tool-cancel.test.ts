// Through the built CLI: a tool call the person cancels (SIGINT, as Ctrl+C sends) while it runs
// is recorded `interrupted`, not `error` (R-TOOL-4), for bash and for an MCP tool alike, and
// counts in the turn's tool_errors.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openaiToolCalls } from "../support/openai-script.js";
import { killLeftovers, recordHas, runArgs, sessionDirs, startTern } from "./process-support.js";
import { recordLines, useE2E, writeUserConfig } from "./tools-support.js";

const e = useE2E();
afterEach(killLeftovers);
const SERVER = join(import.meta.dirname, "..", "tools", "fixtures", "mcp-server.mjs");

describe.each([
  { tool: "bash", call: { id: "b1", name: "bash", args: { command: "sleep 30" } } },
  { tool: "an MCP tool", call: { id: "m1", name: "fx__hang", args: {} } },
])("a cancel while $tool runs", ({ call }) => {
  it("records the call interrupted and counts it as a tool error", async () => {
    writeUserConfig(e, { toolSets: [{ name: "fx", command: process.execPath, args: [SERVER] }] });
    e.provider.enqueue(openaiToolCalls([call]));
    const t = startTern(e, runArgs(e, ["--yes"]));
    const dir = () => sessionDirs(e)[0];
    await t.waitFor(() => !!dir() && recordHas(dir(), "tool_start", call.id), "the call to start");
    t.child.kill("SIGINT");
    expect((await t.exit).code).toBe(130);
    const result = t.events().find((ev) => ev.type === "tool_result" && ev.id === call.id);
    expect(result).toMatchObject({ outcome: "interrupted" });
    expect(t.events().find((ev) => ev.type === "turn_end")).toMatchObject({
      stop_reason: "cancelled",
      tool_errors: 1,
    });
    const recorded = recordLines(e).find((l) => l.type === "tool_result" && l.id === call.id);
    expect(recorded.outcome).toBe("interrupted");
  }, 30_000);
});
