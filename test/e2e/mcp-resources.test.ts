// What MCP servers hold besides tools (R-MCP-2), through `tern run` against the real fixture server
// (stdio): the two resource tools are offered only while a server declares resources, list and
// read unasked in the default mode and in plan mode (text, an image, other binary as a note), and
// `@<server>:<uri>` in a prompt attaches the resource's text like an `@file`.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { ternRun, toolMessages, useE2E, writeUserConfig } from "./tools-support.js";

const SERVER = join(import.meta.dirname, "..", "tools", "fixtures", "mcp-server.mjs");
const e = useE2E();
const withResources = (resources: boolean) =>
  writeUserConfig(e, {
    models: { "openai/mock-1": { images: true, contextWindow: 128000, maxOutputTokens: 4096 } },
    toolSets: [
      {
        name: "fx",
        command: process.execPath,
        args: [SERVER],
        env: resources ? { FIXTURE_RESOURCES: "1" } : {},
      },
    ],
  });
const offered = (n: number) => e.provider.requests[n].body.tools.map((t: any) => t.function.name);

describe("MCP resources", () => {
  it("lists and reads resources without asking (no --yes): text, template, image, binary", async () => {
    withResources(true);
    e.provider.enqueue(
      openaiToolCalls([
        { id: "l1", name: "list_mcp_resources", args: {} },
        { id: "r1", name: "read_mcp_resource", args: { server: "fx", uri: "notes://readme" } },
        { id: "r2", name: "read_mcp_resource", args: { server: "fx", uri: "notes://data.bin" } },
        { id: "r3", name: "read_mcp_resource", args: { server: "fx", uri: "notes://by-name/alpha" } },
        { id: "r4", name: "read_mcp_resource", args: { server: "nope", uri: "notes://readme" } },
      ]),
      openaiText("done"),
    );
    const run = await ternRun(e, []);
    expect(run.code).toBe(0);
    expect(offered(0)).toEqual(
      expect.arrayContaining(["list_mcp_resources", "read_mcp_resource", "fx__echo"]),
    );
    const sent = Object.fromEntries(toolMessages(e.provider.requests[1].body).map((m) => [m.id, m.content]));
    expect(sent.l1).toBe(
      [
        "fx: notes://readme  readme  (text/markdown)",
        "fx: notes://logo.png  logo  (image/png)",
        "fx: notes://data.bin  data  (application/octet-stream)",
        "fx: notes://by-name/{name}  note  (template, text/plain)",
      ].join("\n"),
    );
    expect(sent.r1).toBe("# Notes\nthe readme body");
    expect(sent.r2).toMatch(/application\/octet-stream/);
    expect(sent.r2).not.toContain("AAECAw==");
    expect(sent.r3).toBe("note alpha");
    expect(sent.r4).toMatch(/^no MCP server 'nope' with resources \(servers: fx\)/);
    expect(run.end).toMatchObject({ stop_reason: "completed" });
  });

  it("reads in plan mode too, and an image resource reaches the model as an image", async () => {
    withResources(true);
    e.provider.enqueue(
      openaiToolCalls([
        { id: "r1", name: "read_mcp_resource", args: { server: "fx", uri: "notes://logo.png" } },
      ]),
      openaiText("seen"),
    );
    const run = await ternRun(e, ["--mode", "plan"]);
    expect(run.code).toBe(0);
    expect(JSON.stringify(e.provider.requests[1].body.messages)).toContain("data:image/png;base64,");
    expect(run.events.filter((ev) => ev.type === "tool_result")).toMatchObject([{ id: "r1", outcome: "ok" }]);
  });

  it("@server:uri attaches the resource's text to the prompt; no resource tools without resources", async () => {
    withResources(true);
    e.provider.enqueue(openaiText("read it"));
    const run = await ternRun(e, [], "summarize @fx:notes://readme please");
    expect(run.code).toBe(0);
    const user = e.provider.requests[0].body.messages.find((m: any) => m.role === "user");
    const text =
      typeof user.content === "string" ? user.content : user.content.map((p: any) => p.text ?? "").join("\n");
    expect(text).toContain("summarize @fx:notes://readme please");
    expect(text).toContain("Attached resource fx:notes://readme:\n```\n# Notes\nthe readme body\n```");

    withResources(false);
    e.provider.enqueue(openaiText("no resources"));
    expect((await ternRun(e, [])).code).toBe(0);
    expect(offered(1)).not.toContain("list_mcp_resources");
    expect(offered(1)).toContain("fx__echo");
  });
});
