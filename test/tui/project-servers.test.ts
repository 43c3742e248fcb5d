// R-WF-3 in the interactive UI: an untrusted workspace's `.mcp.json` servers are offered at start,
// and `/mcp approve` starts them in the running session: their tools join the next request. And a
// custom command's `!`cmd`` asks in the UI like any bash call.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { approve, userTexts, useTui } from "./support.js";

const SERVER = join(import.meta.dirname, "..", "tools", "fixtures", "mcp-server.mjs");
const t = useTui();
const toolNames = (i: number): string[] => t.provider.requests[i].body.tools.map((x: any) => x.function.name);

describe("project MCP servers in the UI", () => {
  it("offers the unapproved servers at start; /mcp approve starts them for the next request", async () => {
    writeFileSync(
      join(t.dirs.workspace, ".mcp.json"),
      JSON.stringify({ mcpServers: { Files: { command: process.execPath, args: [SERVER] } } }),
    );
    t.provider.enqueue(openaiText("before"), openaiText("after"));
    const vt = await t.start();
    await vt.waitFor("starts it now and in later sessions");
    // The offer is one line of the scrollback (wrapped at the terminal's width).
    expect(vt.text().replace(/\n/g, "")).toContain(
      `${join(t.dirs.workspace, ".mcp.json")} has MCP server not approved for this workspace: Files · /mcp approve starts it now and in later sessions`,
    );
    await vt.type("hi");
    await vt.press("enter");
    await vt.waitFor("— turn 1 · completed");
    expect(toolNames(0).some((n) => n.startsWith("files__"))).toBe(false);
    await vt.type("/mcp approve");
    await vt.press("enter");
    await vt.waitFor("approved for this workspace: Files; starting now: files");
    await vt.type("again");
    await vt.press("enter");
    await vt.waitFor("— turn 2 · completed", 30_000);
    expect(toolNames(1)).toContain("files__echo");
  });
});

describe("project MCP servers approved during a turn", () => {
  it("join the turn's next round", async () => {
    writeFileSync(
      join(t.dirs.workspace, ".mcp.json"),
      JSON.stringify({ mcpServers: { Files: { command: process.execPath, args: [SERVER] } } }),
    );
    t.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "sleep 1; echo slept" } }]),
      openaiText("done"),
    );
    const vt = await t.start([], { permissions: { mode: "yolo" } });
    await vt.type("work");
    await vt.press("enter");
    await vt.waitFor("bash");
    await vt.type("/mcp approve");
    await vt.press("enter");
    await vt.waitFor("starting now: files");
    await vt.waitFor("— turn 1 · completed", 30_000);
    expect(toolNames(0).some((n) => n.startsWith("files__"))).toBe(false);
    expect(toolNames(1)).toContain("files__echo");
  });
});

describe("a custom command's !`cmd` in the UI", () => {
  it("asks like any bash call when allowed-tools do not cover it; the answer decides what the prompt carries", async () => {
    const dir = join(t.dirs.workspace, ".claude", "commands");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "ctx.md"), "Branch: !`echo on-main`\nSay it.\n");
    t.provider.enqueue(openaiText("said"), openaiText("said again"));
    const vt = await t.start();
    await vt.type("/ctx");
    await vt.press("enter");
    await vt.waitForScreen(/Allow this tool call\?[\s\S]*echo on-main/);
    await approve(vt, "y");
    await vt.waitFor("— turn 1 · completed");
    expect(userTexts(t.provider.requests[0].body)).toEqual(["Branch: on-main\nSay it."]);
    await vt.type("/ctx");
    await vt.press("enter");
    await vt.waitForScreen(/Allow this tool call\?[\s\S]*echo on-main/);
    await approve(vt, "n");
    await vt.waitFor("— turn 2 · completed");
    expect(userTexts(t.provider.requests[1].body).at(-1)).toMatch(/^Branch: denied[^\n]*\nSay it\.$/);
  });
});
