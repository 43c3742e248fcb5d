// `tern acp` end to end: the SDK's client drives the built agent over stdio against the fake
// provider — permissions granted, always-granted and rejected, chunks streamed in order, cancel
// mid-turn, load of an earlier session replayed before the answer, images, a malformed message,
// an unknown method, and the exit when stdin closes. The record and ledger are a terminal session's.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliEnv, TERN_BIN } from "../support/cli.js";
import { openaiError, openaiStream, openaiText, openaiToolCalls } from "../support/openai-script.js";
import { type AcpClient, initialize, startAcp, text } from "./acp-support.js";
import { recordLines, useE2E } from "./tools-support.js";

const PNG_1X1 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

const e = useE2E({
  config: () => ({
    retry: { maxRetries: 0 },
    models: { "openai/mock-vision": { images: true, contextWindow: 128000, maxOutputTokens: 4096 } },
  }),
});
let clients: AcpClient[] = [];
afterEach(async () => {
  for (const c of clients) if (c.child.exitCode === null) await c.close();
  clients = [];
});
function start(model?: string): AcpClient {
  const client = startAcp({ home: e.dirs.home, baseUrl: e.provider.baseUrl, model });
  clients.push(client);
  return client;
}
async function newSession(client: AcpClient): Promise<string> {
  await initialize(client);
  const created = await client.agent.request("session/new", { cwd: e.dirs.workspace, mcpServers: [] });
  return created.sessionId;
}

describe("tern acp", () => {
  it("initialize announces load, images and MCP; session/new opens a tern session in the given workspace", async () => {
    const client = start();
    const init = await initialize(client);
    expect(init.agentCapabilities?.loadSession).toBe(true);
    expect(init.agentCapabilities?.promptCapabilities?.image).toBe(true);
    expect(init.agentInfo?.name).toBe("tern");
    const created = await client.agent.request("session/new", { cwd: e.dirs.workspace, mcpServers: [] });
    expect(created.modes?.currentModeId).toBe("ask");
    expect(created.modes?.availableModes.map((m) => m.id)).toEqual(["ask", "auto-edit", "yolo", "plan"]);
    const lines = recordLines(e);
    expect(lines[0]).toMatchObject({ type: "session_start", id: created.sessionId, cwd: e.dirs.workspace });
  });

  it("streams reasoning and text chunks in order and ends the turn end_turn, recorded and in the ledger", async () => {
    e.provider.enqueue(
      openaiStream()
        .reasoning("Let me ")
        .reasoning("think.")
        .text("Hel")
        .text("lo ")
        .text("there")
        .finish("stop")
        .usage({ prompt_tokens: 10, completion_tokens: 5 })
        .build(),
    );
    const client = start();
    const sessionId = await newSession(client);
    const answer = await client.agent.request("session/prompt", { sessionId, prompt: [text("hi")] });
    expect(answer.stopReason).toBe("end_turn");
    const kinds = client.updates
      .filter((n) => n.sessionId === sessionId)
      .map((n) => n.update)
      .filter((u) => u.sessionUpdate === "agent_message_chunk" || u.sessionUpdate === "agent_thought_chunk")
      .map((u: any) => `${u.sessionUpdate === "agent_thought_chunk" ? "T" : "M"}:${u.content.text}`);
    expect(kinds).toEqual(["T:Let me ", "T:think.", "M:Hel", "M:lo ", "M:there"]);
    expect(
      client.of("available_commands_update", sessionId)[0].availableCommands.map((c: any) => c.name),
    ).toEqual(expect.arrayContaining(["compact", "cost", "undo", "redo"]));
    const lines = recordLines(e);
    expect(lines.find((l) => l.type === "turn_end")).toMatchObject({ stopReason: "completed" });
    expect(await client.close()).toBe(0);
    const ledger = await e.run(["metrics", "--json"]);
    expect(ledger.code).toBe(0);
    expect(ledger.stdout).toContain(sessionId);
    // No key in anything the client received.
    expect(JSON.stringify(client.updates)).not.toContain("sk-test-secret-key");
  });

  it("asks permission for an edit (granted: edit kind, diff, completed) and a command (rejected: failed)", async () => {
    writeFileSync(join(e.dirs.workspace, "a.txt"), "old\n");
    e.provider.enqueue(
      // An edit needs the file read first in the turn (read-before-edit).
      openaiToolCalls([{ id: "call_r", name: "read_file", args: { path: "a.txt" } }]),
      openaiToolCalls([
        { id: "call_w", name: "edit_file", args: { path: "a.txt", old_string: "old", new_string: "new" } },
      ]),
      openaiText("written"),
      openaiToolCalls([{ id: "call_b", name: "bash", args: { command: "echo hi > b.txt" } }]),
      openaiText("ok, not run"),
    );
    const client = start();
    const sessionId = await newSession(client);
    client.answer = (req) => ({
      outcome: { outcome: "selected", optionId: req.options.find((o) => o.kind === "allow_once")!.optionId },
    });
    expect(
      (await client.agent.request("session/prompt", { sessionId, prompt: [text("write it")] })).stopReason,
    ).toBe("end_turn");
    expect(client.permissions).toHaveLength(1);
    const asked = client.permissions[0];
    expect(asked.toolCall).toMatchObject({
      toolCallId: "call_w",
      kind: "edit",
      locations: [{ path: join(e.dirs.workspace, "a.txt") }],
    });
    expect(asked.options.map((o) => o.kind)).toEqual(["allow_once", "allow_always", "reject_once"]);
    expect(asked.options[1].name).toBe(
      `Allow always: edit_file on ${join(e.dirs.workspace, "a.txt")} for this session`,
    );
    const call = client.of("tool_call", sessionId).find((u) => u.toolCallId === "call_w");
    expect(call).toMatchObject({ kind: "edit", title: "edit_file a.txt" });
    expect(client.of("tool_call", sessionId)[0]).toMatchObject({ toolCallId: "call_r", kind: "read" });
    const done = client
      .of("tool_call_update", sessionId)
      .filter((u) => u.toolCallId === "call_w")
      .at(-1);
    expect(done.status).toBe("completed");
    expect(done.content[0]).toEqual({
      type: "diff",
      path: join(e.dirs.workspace, "a.txt"),
      oldText: "old\n",
      newText: "new\n",
    });
    expect(readFileSync(join(e.dirs.workspace, "a.txt"), "utf8")).toBe("new\n");

    client.answer = (req) => ({
      outcome: { outcome: "selected", optionId: req.options.find((o) => o.kind === "reject_once")!.optionId },
    });
    expect(
      (await client.agent.request("session/prompt", { sessionId, prompt: [text("run it")] })).stopReason,
    ).toBe("end_turn");
    expect(client.permissions[1].toolCall).toMatchObject({ toolCallId: "call_b", kind: "execute" });
    const rejected = client
      .of("tool_call_update", sessionId)
      .filter((u) => u.toolCallId === "call_b")
      .at(-1);
    expect(rejected.status).toBe("failed");
    expect(existsSync(join(e.dirs.workspace, "b.txt"))).toBe(false);
    expect(recordLines(e).find((l) => l.type === "tool_result" && l.id === "call_b")).toMatchObject({
      outcome: "denied",
    });
  });

  it("allow always grants the scope for the rest of the session; set_mode yolo stops asking", async () => {
    e.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "echo one" } }]),
      openaiToolCalls([{ id: "c2", name: "bash", args: { command: "echo one more" } }]),
      openaiText("done"),
      openaiToolCalls([{ id: "c3", name: "write_file", args: { path: "x.txt", content: "x" } }]),
      openaiText("done too"),
    );
    const client = start();
    const sessionId = await newSession(client);
    client.answer = (req) => ({
      outcome: {
        outcome: "selected",
        optionId: req.options.find((o) => o.kind === "allow_always")!.optionId,
      },
    });
    await client.agent.request("session/prompt", { sessionId, prompt: [text("go")] });
    expect(client.permissions.map((p) => p.toolCall.toolCallId)).toEqual(["c1"]);
    expect(client.permissions[0].options[1].name).toContain("bash commands starting with `echo one`");
    await client.agent.request("session/set_mode", { sessionId, modeId: "yolo" });
    expect(client.of("current_mode_update", sessionId).at(-1).currentModeId).toBe("yolo");
    await client.agent.request("session/prompt", { sessionId, prompt: [text("again")] });
    expect(client.permissions).toHaveLength(1);
    expect(readFileSync(join(e.dirs.workspace, "x.txt"), "utf8")).toBe("x");
  });

  it("session/cancel mid-turn ends the prompt cancelled", async () => {
    e.provider.enqueue({
      ...openaiStream().text("partial ").text("answer").finish("stop").build(),
      fault: { kind: "stall_after", frames: 2 },
    });
    const client = start();
    const sessionId = await newSession(client);
    const pending = client.agent.request("session/prompt", { sessionId, prompt: [text("long")] });
    for (let i = 0; i < 600 && client.of("agent_message_chunk", sessionId).length === 0; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(client.of("agent_message_chunk", sessionId)[0].content.text).toBe("partial ");
    await client.agent.notify("session/cancel", { sessionId });
    expect((await pending).stopReason).toBe("cancelled");
    expect(recordLines(e).find((l) => l.type === "turn_end")).toMatchObject({ stopReason: "cancelled" });
  });

  it("session/load replays the earlier session (user messages included) before answering, then continues it", async () => {
    e.provider.enqueue(
      openaiToolCalls([{ id: "r1", name: "read_file", args: { path: "notes.md" } }], undefined, "Looking."),
      openaiText("It says hello."),
      openaiText("Still here."),
    );
    writeFileSync(join(e.dirs.workspace, "notes.md"), "hello\n");
    const first = start();
    const sessionId = await newSession(first);
    first.answer = (req) => ({ outcome: { outcome: "selected", optionId: req.options[0].optionId } });
    await first.agent.request("session/prompt", { sessionId, prompt: [text("what do the notes say?")] });
    expect(await first.close()).toBe(0);

    const second = start();
    await initialize(second);
    await second.agent.request("session/load", { sessionId, cwd: e.dirs.workspace, mcpServers: [] });
    const replayed = second.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update);
    expect(replayed.map((u) => u.sessionUpdate).slice(0, 5)).toEqual([
      "user_message_chunk",
      "agent_message_chunk",
      "tool_call",
      "tool_call_update",
      "agent_message_chunk",
    ]);
    expect((replayed[0] as any).content.text).toBe("what do the notes say?");
    expect(replayed[2]).toMatchObject({ toolCallId: "r1", kind: "read" });
    expect(replayed[3]).toMatchObject({ toolCallId: "r1", status: "completed" });
    expect((replayed[4] as any).content.text).toBe("It says hello.");

    await second.agent.request("session/prompt", { sessionId, prompt: [text("and now?")] });
    const sent = e.provider.requests.at(-1)!.body.messages;
    expect(
      sent.some(
        (m: any) => m.role === "user" && JSON.stringify(m.content).includes("what do the notes say?"),
      ),
    ).toBe(true);
    expect(recordLines(e).filter((l) => l.type === "turn_end")).toHaveLength(2);
  });

  it("runs slash commands sent as prompts (/cost, /todos, /yolo) without a model call; todo_write shows as a plan", async () => {
    e.provider.enqueue(
      openaiToolCalls([
        {
          id: "t1",
          name: "todo_write",
          args: { todos: [{ content: "read the code", status: "in_progress" }] },
        },
      ]),
      openaiText("planned"),
    );
    const client = start();
    const sessionId = await newSession(client);
    await client.agent.request("session/prompt", { sessionId, prompt: [text("plan it")] });
    expect(client.of("plan", sessionId).at(-1).entries).toEqual([
      { content: "read the code", priority: "medium", status: "in_progress" },
    ]);
    const before = e.provider.requests.length;
    const reply = async (command: string) => {
      const from = client.of("agent_message_chunk", sessionId).length;
      const answer = await client.agent.request("session/prompt", { sessionId, prompt: [text(command)] });
      expect(answer.stopReason).toBe("end_turn");
      return client
        .of("agent_message_chunk", sessionId)
        .slice(from)
        .map((u) => u.content.text)
        .join("");
    };
    expect(await reply("/cost")).toMatch(/^cost so far: /);
    expect(await reply("/todos")).toContain("read the code");
    expect(await reply("/yolo")).toContain("yolo");
    expect(client.of("current_mode_update", sessionId).at(-1).currentModeId).toBe("yolo");
    expect(e.provider.requests.length).toBe(before);
    // A side question asks the model but commits nothing to the session.
    e.provider.enqueue(openaiText("side answer"));
    const lines = recordLines(e).length;
    expect(await reply("/btw what is x?")).toContain("[side] side answer");
    expect(recordLines(e).length).toBe(lines);
  });

  it("/undo and /redo over ACP take a turn's file changes back and put them back", async () => {
    e.provider.enqueue(
      openaiToolCalls([{ id: "w1", name: "write_file", args: { path: "y.txt", content: "made" } }]),
      openaiText("made it"),
    );
    const client = start();
    const sessionId = await newSession(client);
    await client.agent.request("session/set_mode", { sessionId, modeId: "yolo" });
    await client.agent.request("session/prompt", { sessionId, prompt: [text("make y")] });
    expect(readFileSync(join(e.dirs.workspace, "y.txt"), "utf8")).toBe("made");
    await client.agent.request("session/prompt", { sessionId, prompt: [text("/undo")] });
    expect(existsSync(join(e.dirs.workspace, "y.txt"))).toBe(false);
    await client.agent.request("session/prompt", { sessionId, prompt: [text("/redo")] });
    expect(readFileSync(join(e.dirs.workspace, "y.txt"), "utf8")).toBe("made");
    const said = client
      .of("agent_message_chunk", sessionId)
      .map((u) => u.content.text)
      .join("");
    expect(said).toContain("undid 1 turn (1)");
    expect(said).toContain("redid 1 turn (1)");
  });

  it("MCP servers the client passes in session/new join the tools (kind other, asked, run)", async () => {
    const server = join(import.meta.dirname, "..", "tools", "fixtures", "mcp-server.mjs");
    e.provider.enqueue(
      openaiToolCalls([{ id: "m1", name: "fx__echo", args: { text: "hello" } }]),
      openaiText("echoed"),
    );
    const client = start();
    await initialize(client);
    const { sessionId } = await client.agent.request("session/new", {
      cwd: e.dirs.workspace,
      mcpServers: [{ name: "fx", command: process.execPath, args: [server], env: [] }],
    });
    client.answer = (req) => ({ outcome: { outcome: "selected", optionId: req.options[0].optionId } });
    await client.agent.request("session/prompt", { sessionId, prompt: [text("echo")] });
    const names = e.provider.requests[0].body.tools.map((t: any) => t.function.name);
    expect(names).toEqual(expect.arrayContaining(["fx__echo", "bash"]));
    expect(client.permissions[0].toolCall).toMatchObject({ toolCallId: "m1", kind: "other" });
    const done = client
      .of("tool_call_update", sessionId)
      .filter((u) => u.toolCallId === "m1")
      .at(-1);
    expect(done).toMatchObject({
      status: "completed",
      content: [{ type: "content", content: { type: "text", text: "echo: hello" } }],
    });
  });

  it("sends an image prompt to an image model", async () => {
    e.provider.enqueue(openaiText("a red dot"));
    const client = start("openai/mock-vision");
    const sessionId = await newSession(client);
    await client.agent.request("session/prompt", {
      sessionId,
      prompt: [text("what is this?"), { type: "image", mimeType: "image/png", data: PNG_1X1 }],
    });
    const user = e.provider.requests[0].body.messages.find((m: any) => m.role === "user");
    expect(user.content).toContainEqual({
      type: "image_url",
      image_url: { url: `data:image/png;base64,${PNG_1X1}` },
    });
  });

  it("answers a malformed line and an unknown method with JSON-RPC errors and keeps running; exits when stdin closes", async () => {
    e.provider.enqueue(openaiText("still alive"));
    const client = start();
    const sessionId = await newSession(client);
    client.child.stdin!.write("{this is not json\n");
    await expect(client.agent.request("tern/nothing", {})).rejects.toMatchObject({ code: -32601 });
    const answer = await client.agent.request("session/prompt", { sessionId, prompt: [text("hi")] });
    expect(answer.stopReason).toBe("end_turn");
    expect(await client.close()).toBe(0);
  });
});

describe("tern acp on the wire", () => {
  it("stdout carries JSON-RPC only (notices go to stderr), unknown methods get -32601 with their id, no key is sent", async () => {
    e.provider.enqueue(
      openaiText("plain answer"),
      openaiError(400, { error: { message: "bad request from provider" } }),
    );
    const child = spawn(
      process.execPath,
      [TERN_BIN, "acp", "--model", "openai/mock-1", "--base-url", e.provider.baseUrl],
      {
        cwd: e.dirs.home,
        env: cliEnv(e.dirs.home, { OPENAI_API_KEY: "sk-test-secret-key" }),
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
    const responseTo = async (id: number) => {
      for (let i = 0; i < 600; i++) {
        const found = stdout
          .split("\n")
          .filter((l) => l.trim())
          .map((l) => JSON.parse(l))
          .find((m) => m.id === id && !m.method);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no response to ${id}; stderr: ${stderr}`);
    };
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: 1, clientCapabilities: {} },
    });
    await responseTo(1);
    send({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: e.dirs.workspace, mcpServers: [] } });
    const { sessionId } = (await responseTo(2)).result;
    send({ jsonrpc: "2.0", id: 3, method: "tern/unknown", params: {} });
    expect((await responseTo(3)).error.code).toBe(-32601);
    send({
      jsonrpc: "2.0",
      id: 4,
      method: "session/prompt",
      params: { sessionId, prompt: [{ type: "text", text: "hi" }] },
    });
    expect((await responseTo(4)).result).toEqual({ stopReason: "end_turn" });
    // A failed turn (the provider refused) is a JSON-RPC error; the agent goes on.
    send({
      jsonrpc: "2.0",
      id: 5,
      method: "session/prompt",
      params: { sessionId, prompt: [{ type: "text", text: "again" }] },
    });
    const failed = await responseTo(5);
    expect(failed.error.message).toContain("bad request from provider");
    child.stdin.end();
    expect(await exited).toBe(0);
    for (const line of stdout.split("\n").filter((l) => l.trim()))
      expect(JSON.parse(line).jsonrpc).toBe("2.0");
    expect(stdout).not.toContain("sk-test-secret-key");
    expect(stderr).toContain("notice:");
  });
});
