// `tern acp` at its edges: a cancel while a batch's permissions are being asked, sessions the
// agent does not have, workspaces that are not absolute existing folders, and the MCP servers a
// client passes (Streamable HTTP as well as stdio, names as editors write them).
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFixtureServer } from "../support/fixture-server.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { type AcpClient, initialize, startAcp, text } from "./acp-support.js";
import { recordLines, useE2E } from "./tools-support.js";

const SERVER = join(import.meta.dirname, "..", "tools", "fixtures", "mcp-server.mjs");
const e = useE2E({
  config: () => ({
    retry: { maxRetries: 0 },
    toolSets: [{ name: "fx", command: process.execPath, args: [SERVER] }],
    // Four fixture servers here: every tool offered, not the tool search.
    mcpToolSearchThreshold: 0,
  }),
});
let clients: AcpClient[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of clients) if (c.child.exitCode === null) await c.close();
  clients = [];
  for (const c of children.splice(0)) c.kill("SIGKILL");
});
function start(): AcpClient {
  const client = startAcp({ home: e.dirs.home, baseUrl: e.provider.baseUrl });
  clients.push(client);
  return client;
}

/** A started, initialized agent with one new session in the workspace. */
async function newSession(): Promise<{ client: AcpClient; sessionId: string }> {
  const client = start();
  await initialize(client);
  const { sessionId } = await client.agent.request("session/new", { cwd: e.dirs.workspace, mcpServers: [] });
  return { client, sessionId };
}

/** The fixture as a Streamable HTTP server on 127.0.0.1:0; resolves to its URL. */
async function httpServer(env: Record<string, string>): Promise<string> {
  const { child, port } = startFixtureServer(SERVER, { env: { FIXTURE_HTTP: "1", ...env }, name: "HTTP" });
  children.push(child);
  return `http://127.0.0.1:${await port}/mcp`;
}

describe("tern acp edges", () => {
  it("a cancel answered to the first permission request asks nothing more of the batch", async () => {
    e.provider.enqueue(
      openaiToolCalls([
        { id: "c1", name: "bash", args: { command: "echo 1 > one" } },
        { id: "c2", name: "bash", args: { command: "echo 2 > two" } },
        { id: "c3", name: "bash", args: { command: "echo 3 > three" } },
      ]),
      openaiText("never sent"),
    );
    const { client, sessionId } = await newSession();
    // What an editor does on Stop: session/cancel, then every pending question answered cancelled.
    client.answer = async () => {
      await client.agent.notify("session/cancel", { sessionId });
      return { outcome: { outcome: "cancelled" } };
    };
    const answer = await client.agent.request("session/prompt", { sessionId, prompt: [text("go")] });
    expect(answer.stopReason).toBe("cancelled");
    expect(client.permissions.map((p) => p.toolCall.toolCallId)).toEqual(["c1"]);
    for (const f of ["one", "two", "three"]) expect(existsSync(join(e.dirs.workspace, f))).toBe(false);
    const results = recordLines(e).filter((l) => l.type === "tool_result");
    expect(results.map((r) => [r.id, r.outcome])).toEqual([
      ["c1", "denied"],
      ["c2", "denied"],
      ["c3", "denied"],
    ]);
  });

  it("a session/cancel while a permission request is unanswered ends the prompt, cancelled", async () => {
    e.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "echo 1 > one" } }]),
      openaiText("never sent"),
    );
    const { client, sessionId } = await newSession();
    // A client that cancels but never answers the question it was asked.
    client.answer = () => {
      void client.agent.notify("session/cancel", { sessionId });
      return new Promise(() => {});
    };
    const answer = await client.agent.request("session/prompt", { sessionId, prompt: [text("go")] });
    expect(answer.stopReason).toBe("cancelled");
    expect(existsSync(join(e.dirs.workspace, "one"))).toBe(false);
    expect(recordLines(e).find((l) => l.type === "tool_result")).toMatchObject({
      id: "c1",
      outcome: "denied",
    });
  });

  it("an unknown session is -32002 naming it; a cwd that is relative or missing is -32602; the agent keeps running", async () => {
    e.provider.enqueue(openaiText("still here"));
    const client = start();
    await initialize(client);
    await expect(
      client.agent.request("session/load", { sessionId: "nope-123", cwd: e.dirs.workspace, mcpServers: [] }),
    ).rejects.toMatchObject({ code: -32002, message: expect.stringContaining("no session 'nope-123'") });
    await expect(
      client.agent.request("session/prompt", { sessionId: "nope-123", prompt: [text("x")] }),
    ).rejects.toMatchObject({ code: -32002, data: { sessionId: "nope-123" } });
    await expect(
      client.agent.request("session/new", { cwd: "relative/dir", mcpServers: [] }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("absolute path") });
    const missing = join(e.dirs.workspace, "no-such-folder");
    await expect(client.agent.request("session/new", { cwd: missing, mcpServers: [] })).rejects.toMatchObject(
      {
        code: -32602,
        message: expect.stringContaining(`'${missing}' is not an existing folder`),
      },
    );
    expect(existsSync(missing)).toBe(false);
    const { sessionId } = await client.agent.request("session/new", {
      cwd: e.dirs.workspace,
      mcpServers: [],
    });
    expect(
      (await client.agent.request("session/prompt", { sessionId, prompt: [text("hi")] })).stopReason,
    ).toBe("end_turn");
  });

  it("joins a client's Streamable HTTP server, and names client servers as valid, unique tool sets", async () => {
    const url = await httpServer({ FIXTURE_TOKEN: "tok-acp-123" });
    e.provider.enqueue(
      openaiToolCalls([{ id: "h1", name: "web__echo", args: { text: "over http" } }]),
      openaiText("done"),
    );
    const client = start();
    const init = await initialize(client);
    expect(init.agentCapabilities?.mcpCapabilities?.http).toBe(true);
    const { sessionId } = await client.agent.request("session/new", {
      cwd: e.dirs.workspace,
      mcpServers: [
        { type: "http", name: "web", url, headers: [{ name: "Authorization", value: "Bearer tok-acp-123" }] },
        // An editor's display name, and a name the user's config already uses.
        { name: "My Files", command: process.execPath, args: [SERVER], env: [] },
        { name: "fx", command: process.execPath, args: [SERVER], env: [] },
      ],
    });
    client.answer = (req) => ({ outcome: { outcome: "selected", optionId: req.options[0].optionId } });
    await client.agent.request("session/prompt", { sessionId, prompt: [text("echo")] });
    const names: string[] = e.provider.requests[0].body.tools.map((t: any) => t.function.name);
    expect(names).toEqual(expect.arrayContaining(["web__echo", "my-files__echo", "fx__echo", "fx-2__echo"]));
    const done = client
      .of("tool_call_update", sessionId)
      .filter((u) => u.toolCallId === "h1")
      .at(-1);
    expect(done).toMatchObject({
      status: "completed",
      content: [{ type: "content", content: { type: "text", text: "echo: over http" } }],
    });
    expect(client.stderr()).not.toMatch(/skipped|failed to start/);
  });

  it("never sends the key to the client: not in a permission request, a tool call, its output, the answer or /diff", async () => {
    // The agent's key (acp-support starts it with this one), echoed back by the model and a command.
    const key = "sk-test-secret-key";
    e.provider.enqueue(
      openaiToolCalls([{ id: "k1", name: "bash", args: { command: `echo ${key} | tee k.txt` } }]),
      openaiText(`the key is ${key}`),
    );
    const client = start();
    await initialize(client);
    const { sessionId } = await client.agent.request("session/new", {
      cwd: e.dirs.workspace,
      mcpServers: [],
    });
    client.answer = (req) => ({ outcome: { outcome: "selected", optionId: req.options[0].optionId } });
    await client.agent.request("session/prompt", { sessionId, prompt: [text("show it")] });
    // A slash command's output comes from no event: /diff shows the file the command wrote.
    await client.agent.request("session/prompt", { sessionId, prompt: [text("/diff")] });
    expect(JSON.stringify(client.updates)).toContain("k.txt");
    expect(client.permissions).toHaveLength(1);
    const seen = JSON.stringify([client.permissions, client.updates]);
    expect(seen).toContain("[redacted]");
    expect(seen).not.toContain(key);
  });
});
