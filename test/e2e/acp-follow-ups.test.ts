// `tern acp` queues follow-ups like the terminal (R-TURN-7): a session/prompt sent while a turn
// runs joins it after the current tool batch and is answered with that turn's stop; one sent
// during a text answer starts the next turn; session/cancel answers the queued ones `cancelled`.
import { afterEach, describe, expect, it } from "vitest";
import { openaiStream, openaiText, openaiToolCalls } from "../support/openai-script.js";
import { type AcpClient, initialize, startAcp, text } from "./acp-support.js";
import { useE2E } from "./tools-support.js";

const e = useE2E({ config: () => ({ retry: { maxRetries: 0 }, permissions: { mode: "yolo" } }) });
let clients: AcpClient[] = [];
afterEach(async () => {
  for (const c of clients) if (c.child.exitCode === null) await c.close();
  clients = [];
});
async function session(): Promise<{ client: AcpClient; sessionId: string }> {
  const client = startAcp({ home: e.dirs.home, baseUrl: e.provider.baseUrl });
  clients.push(client);
  await initialize(client);
  const created = await client.agent.request("session/new", { cwd: e.dirs.workspace, mcpServers: [] });
  return { client, sessionId: created.sessionId };
}
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 600 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(check()).toBe(true);
}
const userTexts = (body: any) =>
  body.messages.filter((m: any) => m.role === "user").map((m: any) => m.content);

describe("tern acp follow-ups", () => {
  it("a prompt sent during a tool batch joins the running turn after it", async () => {
    e.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "sleep 0.5; echo slow" } }]),
      openaiText("saw both"),
    );
    const { client, sessionId } = await session();
    const first = client.agent.request("session/prompt", { sessionId, prompt: [text("check A")] });
    await until(() => client.of("tool_call", sessionId).length > 0);
    const second = client.agent.request("session/prompt", { sessionId, prompt: [text("also check B")] });
    expect((await first).stopReason).toBe("end_turn");
    expect((await second).stopReason).toBe("end_turn");
    expect(e.provider.requests).toHaveLength(2);
    expect(userTexts(e.provider.requests[1].body)).toEqual(["check A", "also check B"]);
  });

  it("a prompt sent during a text answer starts the next turn; a cancel answers queued prompts cancelled", async () => {
    e.provider.enqueue(
      openaiStream().text("slow ").text("answer").delay(300).build(),
      openaiStream().text("stuck").stallAfter(2).build(),
    );
    const { client, sessionId } = await session();
    const first = client.agent.request("session/prompt", { sessionId, prompt: [text("one")] });
    await until(() => client.of("agent_message_chunk", sessionId).length > 0);
    const second = client.agent.request("session/prompt", { sessionId, prompt: [text("two")] });
    expect((await first).stopReason).toBe("end_turn");
    await until(() => e.provider.requests.length === 2);
    expect(userTexts(e.provider.requests[1].body)).toEqual(["one", "two"]);
    const third = client.agent.request("session/prompt", { sessionId, prompt: [text("three")] });
    await new Promise((r) => setTimeout(r, 100));
    await client.agent.notify("session/cancel", { sessionId });
    expect((await second).stopReason).toBe("cancelled");
    expect((await third).stopReason).toBe("cancelled");
    expect(e.provider.requests).toHaveLength(2);
  });
});
