// `tern acp` slash commands at their edges: `/status` and `/cost` of a model
// with no known price say `unknown`, never `$0.0000`; a mistyped command gets the "did you mean"
// line and never reaches the model (R-UI-6).
import { afterEach, describe, expect, it } from "vitest";
import { type AcpClient, initialize, startAcp, text } from "./acp-support.js";
import { useE2E } from "./tools-support.js";

const e = useE2E({ config: () => ({ retry: { maxRetries: 0 } }) });
let clients: AcpClient[] = [];
afterEach(async () => {
  for (const c of clients) if (c.child.exitCode === null) await c.close();
  clients = [];
});

describe("tern acp reports", () => {
  it("an unknown price is unknown in /status and /cost; a mistyped command is answered, not sent", async () => {
    const client = startAcp({ home: e.dirs.home, baseUrl: e.provider.baseUrl });
    clients.push(client);
    await initialize(client);
    const { sessionId } = await client.agent.request("session/new", {
      cwd: e.dirs.workspace,
      mcpServers: [],
    });
    const said = async (prompt: string) => {
      const before = client.of("agent_message_chunk", sessionId).length;
      const answer = await client.agent.request("session/prompt", { sessionId, prompt: [text(prompt)] });
      expect(answer.stopReason).toBe("end_turn");
      return client
        .of("agent_message_chunk", sessionId)
        .slice(before)
        .map((u) => u.content.text)
        .join("");
    };
    const status = await said("/status");
    expect(status).toMatch(/cost unknown/);
    expect(status).not.toContain("$0.0000");
    expect(await said("/cost")).toMatch(/cost so far: unknown/);
    expect(await said("/stauts")).toMatch(/unknown command \/stauts: did you mean \/status\?/);
    expect(e.provider.requests).toHaveLength(0);
  });
});
