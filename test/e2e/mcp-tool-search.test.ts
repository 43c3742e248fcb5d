// MCP tools beyond a threshold offered through a search (a first request kept small, as Claude Code's tool search
// does), against the real fixture server exposing 40 more tools: the model first sees one
// read-only `search_mcp_tools` instead of them, its result names the matches with their schemas,
// the matched tools are callable from the next round, and the request prefix stays byte-identical
// round after round where nothing changed. `mcpToolSearchThreshold: 0` offers them all.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { ternRun, toolMessages, useE2E, writeUserConfig } from "./tools-support.js";

const SERVER = join(import.meta.dirname, "..", "tools", "fixtures", "mcp-server.mjs");
const e = useE2E();
const config = (extra: Record<string, unknown> = {}) =>
  writeUserConfig(e, {
    toolSets: [{ name: "fx", command: process.execPath, args: [SERVER], env: { FIXTURE_MANY_TOOLS: "40" } }],
    ...extra,
  });
const offered = (n: number): string[] => e.provider.requests[n].body.tools.map((t: any) => t.function.name);

describe("MCP tool search", () => {
  it("over 30 tools: search first (read-only, unasked), then the found tool is callable; the prefix holds", async () => {
    config();
    e.provider.enqueue(
      openaiToolCalls([{ id: "s1", name: "search_mcp_tools", args: { query: "deploy a service" } }]),
      openaiToolCalls([{ id: "d1", name: "fx__deploy_service", args: { service: "web" } }]),
      openaiToolCalls([{ id: "s2", name: "search_mcp_tools", args: { query: "zebra quokka" } }]),
      openaiText("deployed"),
    );
    // No --yes: the search runs unasked; the deploy is allowed by a rule.
    const run = await ternRun(e, ["--allow", "fx__deploy_service"]);
    expect(run.code).toBe(0);
    expect(offered(0)).toContain("search_mcp_tools");
    expect(offered(0).filter((n) => n.startsWith("fx__"))).toEqual([]);
    const search = toolMessages(e.provider.requests[1].body).find((m) => m.id === "s1")!.content;
    expect(search.split("\n")[0]).toBe("fx__deploy_service: Deploys a service to an environment");
    expect(search).toContain('"service":{"type":"string"}');
    expect(offered(1)).toEqual([...offered(0), "fx__deploy_service"]);
    const deploy = toolMessages(e.provider.requests[2].body).find((m) => m.id === "d1")!.content;
    expect(deploy).toBe("deployed web");
    const none = toolMessages(e.provider.requests[3].body).find((m) => m.id === "s2")!.content;
    expect(none).toMatch(/^no MCP tool matches 'zebra quokka' \(\d+ tools; try other words\)/);
    // Nothing new was found after round 1: the tools and the messages so far are byte-identical.
    for (const n of [2, 3]) {
      expect(JSON.stringify(e.provider.requests[n].body.tools)).toBe(
        JSON.stringify(e.provider.requests[1].body.tools),
      );
      const before = e.provider.requests[n - 1].body.messages;
      expect(JSON.stringify(e.provider.requests[n].body.messages.slice(0, before.length))).toBe(
        JSON.stringify(before),
      );
    }
    expect(run.end).toMatchObject({ stop_reason: "completed" });

    // Resumed, the session still offers what its searches found: the same tools as before.
    e.provider.enqueue(openaiText("still there"));
    expect((await ternRun(e, ["--continue"], "go on")).code).toBe(0);
    expect(JSON.stringify(e.provider.requests[4].body.tools)).toBe(
      JSON.stringify(e.provider.requests[3].body.tools),
    );
  });

  it("select:<name> picks by name; mcpToolSearchThreshold 0 offers every tool", async () => {
    config({ mcpToolSearchThreshold: 0 });
    e.provider.enqueue(openaiText("all there"));
    expect((await ternRun(e, [])).code).toBe(0);
    expect(offered(0)).not.toContain("search_mcp_tools");
    expect(offered(0)).toEqual(expect.arrayContaining(["fx__bulk_39", "fx__deploy_service", "fx__echo"]));

    config({ mcpToolSearchThreshold: 100 });
    e.provider.enqueue(openaiText("under the threshold"));
    expect((await ternRun(e, [])).code).toBe(0);
    expect(offered(1)).not.toContain("search_mcp_tools");

    config();
    e.provider.enqueue(
      openaiToolCalls([
        { id: "s1", name: "search_mcp_tools", args: { query: "select:fx__bulk_7,fx__echo" } },
      ]),
      openaiText("picked"),
    );
    expect((await ternRun(e, [])).code).toBe(0);
    expect(offered(3)).toEqual([...offered(2), "fx__bulk_7", "fx__echo"]);
  });
});
