// `@<server>:<uri>` in the interactive UI (R-MCP-2): the `@` menu offers the MCP servers'
// resources beside the workspace's files, and the chosen one attaches the resource's text.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText } from "../support/openai-script.js";
import { useTui } from "./support.js";

const SERVER = join(import.meta.dirname, "..", "tools", "fixtures", "mcp-server.mjs");
const t = useTui();

describe("MCP resources in the @ menu", () => {
  it("completes @fx:notes… from the server's list and sends the resource's text", async () => {
    t.provider.enqueue(openaiText("read"));
    const vt = await t.start([], {
      toolSets: [{ name: "fx", command: process.execPath, args: [SERVER], env: { FIXTURE_RESOURCES: "1" } }],
    });
    // The list is asked for at the first `@`, once the server is up; the menu shows it when it comes.
    await vt.type("@fx:notes:");
    await vt.waitForScreen(/@fx:notes:\/\/readme/, 20_000);
    await vt.write("\t");
    await vt.type("please");
    await vt.press("enter");
    await vt.waitFor("— turn 1 · completed", 30_000);
    const user = t.provider.requests[0].body.messages.find((m: any) => m.role === "user");
    const text =
      typeof user.content === "string" ? user.content : user.content.map((p: any) => p.text ?? "").join("\n");
    expect(text).toContain("@fx:notes://readme please");
    expect(text).toContain("Attached resource fx:notes://readme:");
    expect(text).toContain("the readme body");
  });
});
