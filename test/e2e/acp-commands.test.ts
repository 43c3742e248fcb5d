// `tern acp` command list (R-WF-2, ACP `available_commands_update`): the workspace's custom
// commands are offered when the session opens; the MCP servers' prompts join once the servers
// have started (here after `/mcp approve` starts an untrusted workspace's `.mcp.json` server in
// the running session, R-WF-3), the list is sent again, and an MCP prompt runs as a command.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openaiText } from "../support/openai-script.js";
import { type AcpClient, initialize, startAcp, text } from "./acp-support.js";
import { useE2E } from "./tools-support.js";

const SERVER = join(import.meta.dirname, "..", "tools", "fixtures", "mcp-server.mjs");
const e = useE2E({ config: () => ({ retry: { maxRetries: 0 } }) });
let clients: AcpClient[] = [];
afterEach(async () => {
  for (const c of clients) if (c.child.exitCode === null) await c.close();
  clients = [];
});

async function until<T>(probe: () => T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("tern acp available commands", () => {
  it("offers custom commands at once and MCP prompts once their server runs, sent again when the list changes", async () => {
    const ws = e.dirs.workspace;
    mkdirSync(join(ws, ".claude", "commands"), { recursive: true });
    writeFileSync(
      join(ws, ".claude", "commands", "review.md"),
      "---\ndescription: Review a file\nargument-hint: <file>\n---\nReview $ARGUMENTS carefully.\n",
    );
    writeFileSync(
      join(ws, ".mcp.json"),
      JSON.stringify({ mcpServers: { Files: { command: process.execPath, args: [SERVER] } } }),
    );
    e.provider.enqueue(openaiText("reviewed"));
    const client = startAcp({ home: e.dirs.home, baseUrl: e.provider.baseUrl });
    clients.push(client);
    await initialize(client);
    const { sessionId } = await client.agent.request("session/new", { cwd: ws, mcpServers: [] });
    const lists = () => client.of("available_commands_update", sessionId).map((u) => u.availableCommands);
    const first = await until(() => lists()[0], "the first command list");
    expect(first).toEqual(
      expect.arrayContaining([
        { name: "review", description: "Review a file (project)", input: { hint: "<file>" } },
      ]),
    );
    expect(first.some((c: any) => c.name.startsWith("mcp__"))).toBe(false);

    const answer = await client.agent.request("session/prompt", {
      sessionId,
      prompt: [text("/mcp approve")],
    });
    expect(answer.stopReason).toBe("end_turn");
    const withPrompts = await until(
      () => lists().find((l: any[]) => l.some((c) => c.name === "mcp__files__review")),
      "the list with the MCP prompt",
    );
    expect(withPrompts.find((c: any) => c.name === "mcp__files__review")).toMatchObject({
      description: expect.stringContaining("(MCP files)"),
      input: { hint: expect.stringContaining("<file>") },
    });
    // Unchanged lists are not sent again.
    const sent = lists().length;
    expect(new Set(lists().map((l: any) => JSON.stringify(l))).size).toBe(sent);

    const ran = await client.agent.request("session/prompt", {
      sessionId,
      prompt: [text("/mcp__files__review src/a.ts error handling")],
    });
    expect(ran.stopReason).toBe("end_turn");
    const user = e.provider.requests[0].body.messages.find((m: any) => m.role === "user");
    const said = typeof user.content === "string" ? user.content : user.content[0].text;
    expect(said).toBe("Review src/a.ts for error handling.");
    // The approved server's tools are offered in this session too.
    expect(e.provider.requests[0].body.tools.map((t: any) => t.function.name)).toContain("files__echo");
  });
});
