// Elicitation (R-MCP-3): a real MCP server (the SDK-built fixture, its `ask` tool calling the
// SDK's `elicitInput` with a string, an enum, a boolean and a required integer) asks the person a
// form mid-call. `tern run` declines it with a notice and the turn goes on; `--plain` in a real
// pty asks field by field (a wrong integer is asked again) or declines; ACP sends the form to a
// client that shows forms as `elicitation/create` and declines it for one that does not.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { useTui } from "../tui/support.js";
import { type AcpClient, initialize, startAcp, text } from "./acp-support.js";
import { ternRun, toolMessages, useE2E, writeUserConfig } from "./tools-support.js";

const SERVER = join(import.meta.dirname, "..", "tools", "fixtures", "mcp-server.mjs");
const toolSets = [{ name: "fx", command: process.execPath, args: [SERVER], env: { FIXTURE_ELICIT: "1" } }];
const askCall = () => openaiToolCalls([{ id: "q1", name: "fx__ask", args: {} }]);
const elicited = (body: any) => {
  const result = toolMessages(body).find((m) => m.id === "q1")?.content ?? "";
  const json = result.match(/elicited: (\{.*\})/)?.[1];
  if (!json) throw new Error(`no elicitation answer in: ${result}`);
  return JSON.parse(json);
};

describe("elicitation in tern run", () => {
  const e = useE2E();
  it("is declined with a notice, and the turn goes on", async () => {
    writeUserConfig(e, { toolSets });
    e.provider.enqueue(askCall(), openaiText("went on"));
    const run = await ternRun(e, ["--yes"]);
    expect(run.code).toBe(0);
    expect(elicited(e.provider.requests[1].body)).toEqual({ action: "decline" });
    const notice = run.events.find((ev) => ev.type === "notice" && /asked for input/.test(ev.text));
    expect(notice?.text).toBe(
      "MCP server 'fx' asked for input (Configure the deploy); declined: nobody can answer here",
    );
    expect(run.end).toMatchObject({ stop_reason: "completed" });
  });
});

describe("elicitation in --plain (a real pty)", () => {
  const t = useTui();
  const start = () =>
    t.start(["--plain", "--mode", "yolo"], { toolSets }, /tern · local\/mock-1 · session \S+/);

  it("accepts with typed values; a wrong integer is asked again", async () => {
    t.provider.enqueue(askCall(), openaiText("configured"));
    const vt = await start();
    await vt.waitFor(/^› $/m);
    await vt.type("deploy it");
    await vt.press("enter");
    await vt.waitFor("MCP server 'fx' asks: Configure the deploy");
    await vt.waitFor("Answer it? [a]ccept / [d]ecline / [c]ancel:");
    await vt.type("a");
    await vt.press("enter");
    await vt.waitFor("Name (string, optional) — who deploys:");
    await vt.type("ana");
    await vt.press("enter");
    await vt.waitFor("env (dev/prod, optional, default dev):");
    await vt.press("enter");
    await vt.waitFor("Force (y/n, optional):");
    await vt.type("yes");
    await vt.press("enter");
    await vt.waitFor("Count (integer):");
    await vt.type("2.5");
    await vt.press("enter");
    await vt.waitFor("count must be a whole number");
    await vt.type("3");
    await vt.press("enter");
    await vt.waitFor("configured");
    expect(elicited(t.provider.requests[1].body)).toEqual({
      action: "accept",
      content: { name: "ana", env: "dev", force: true, count: 3 },
    });
  });

  it("declines; the call's timer does not run out while the person takes their time", async () => {
    t.provider.enqueue(askCall(), openaiText("declined then"));
    const vt = await t.start(
      ["--plain", "--mode", "yolo"],
      { toolSets: [{ ...toolSets[0], timeoutSeconds: 1 }] },
      /tern · local\/mock-1 · session \S+/,
    );
    await vt.waitFor(/^› $/m);
    await vt.type("deploy it");
    await vt.press("enter");
    await vt.waitFor("Answer it? [a]ccept / [d]ecline / [c]ancel:");
    // A person reading the form for longer than the call's timeoutSeconds (1).
    await new Promise((r) => setTimeout(r, 1500));
    await vt.type("d");
    await vt.press("enter");
    await vt.waitFor("declined then");
    expect(elicited(t.provider.requests[1].body)).toEqual({ action: "decline" });
  });
});

describe("elicitation in ACP", () => {
  const e = useE2E();
  let clients: AcpClient[] = [];
  afterEach(async () => {
    for (const c of clients) if (c.child.exitCode === null) await c.close();
    clients = [];
  });
  async function prompt(showsForms: boolean, answer?: (request: any) => any) {
    writeUserConfig(e, { toolSets, retry: { maxRetries: 0 } });
    const client = startAcp({ home: e.dirs.home, baseUrl: e.provider.baseUrl });
    clients.push(client);
    if (answer) client.elicit = answer;
    client.answer = (request) => ({
      outcome: {
        outcome: "selected",
        optionId: request.options.find((o) => o.kind === "allow_once")!.optionId,
      },
    });
    await initialize(client, showsForms ? { elicitation: { form: {} } } : {});
    const { sessionId } = await client.agent.request("session/new", {
      cwd: e.dirs.workspace,
      mcpServers: [],
    });
    const done = await client.agent.request("session/prompt", { sessionId, prompt: [text("deploy it")] });
    return { client, sessionId, done };
  }

  it("a client that shows forms gets elicitation/create and its accepted content goes back", async () => {
    e.provider.enqueue(askCall(), openaiText("configured"));
    const { client, sessionId, done } = await prompt(true, () => ({
      action: "accept",
      content: { name: "bo", env: "prod", force: false, count: 7 },
    }));
    expect(done.stopReason).toBe("end_turn");
    expect(client.elicitations).toHaveLength(1);
    expect(client.elicitations[0]).toMatchObject({
      sessionId,
      mode: "form",
      message: "fx: Configure the deploy",
      requestedSchema: {
        type: "object",
        properties: {
          name: { type: "string", title: "Name", description: "who deploys" },
          env: { type: "string", enum: ["dev", "prod"], default: "dev" },
          force: { type: "boolean", title: "Force" },
          count: { type: "integer", title: "Count" },
        },
        required: ["count"],
      },
    });
    expect(elicited(e.provider.requests[1].body)).toEqual({
      action: "accept",
      content: { name: "bo", env: "prod", force: false, count: 7 },
    });
  });

  it("a client that does not show forms is never asked: declined with a notice", async () => {
    e.provider.enqueue(askCall(), openaiText("went on"));
    const { client, done } = await prompt(false);
    expect(done.stopReason).toBe("end_turn");
    expect(client.elicitations).toHaveLength(0);
    expect(elicited(e.provider.requests[1].body)).toEqual({ action: "decline" });
    expect(client.stderr()).toContain("MCP server 'fx' asked for input (Configure the deploy); declined");
  });
});
