// R-MCP-3 in the Ink UI (a real pty): an MCP server's form (the SDK-built fixture's `ask` tool,
// a string, an enum, a boolean and a required integer) is answered in the composer one question
// at a time — accept, then each field (a wrong integer is asked again) — or declined, or
// cancelled with Ctrl+C while the turn goes on.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { useTui } from "./support.js";

const SERVER = join(import.meta.dirname, "..", "tools", "fixtures", "mcp-server.mjs");
const toolSets = [{ name: "fx", command: process.execPath, args: [SERVER], env: { FIXTURE_ELICIT: "1" } }];
const t = useTui();
const elicited = (n: number) => {
  const m = t.provider.requests[n].body.messages.find((x: any) => x.tool_call_id === "q1");
  return JSON.parse(String(m?.content).match(/elicited: (\{.*\})/)![1]);
};

async function asked() {
  t.provider.enqueue(openaiToolCalls([{ id: "q1", name: "fx__ask", args: {} }]), openaiText("turn over"));
  const vt = await t.start(["--mode", "yolo"], { toolSets });
  await vt.type("deploy it");
  await vt.press("enter");
  await vt.waitFor("MCP server 'fx' asks: Configure the deploy");
  await vt.waitFor("Answer it? [a]ccept / [d]ecline / [c]ancel");
  return vt;
}

describe("elicitation in the UI", () => {
  it("accepts field by field; a wrong integer is asked again", async () => {
    const vt = await asked();
    await vt.type("a");
    await vt.press("enter");
    await vt.waitFor("Name (string, optional) — who deploys:");
    await vt.type("ana");
    await vt.press("enter");
    await vt.waitFor("env (dev/prod, optional, default dev):");
    await vt.press("enter");
    await vt.waitFor("Force (y/n, optional):");
    await vt.type("n");
    await vt.press("enter");
    await vt.waitFor("Count (integer):");
    await vt.type("many");
    await vt.press("enter");
    await vt.waitFor("count must be a whole number · Count (integer):");
    await vt.type("4");
    await vt.press("enter");
    await vt.waitFor("accepted MCP server 'fx''s request");
    await vt.waitFor("turn over");
    expect(elicited(1)).toEqual({
      action: "accept",
      content: { name: "ana", env: "dev", force: false, count: 4 },
    });
  });

  it("declines; Ctrl+C cancels the form and the turn goes on", async () => {
    let vt = await asked();
    await vt.type("d");
    await vt.press("enter");
    await vt.waitFor("turn over");
    expect(elicited(1)).toEqual({ action: "decline" });
    await vt.close();

    vt = await asked();
    await vt.press("ctrlC");
    await vt.waitFor("cancelled MCP server 'fx''s request");
    await vt.waitFor("turn over");
    expect(elicited(3)).toEqual({ action: "cancel" });
  });
});
