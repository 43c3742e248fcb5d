// The ACP agent: one tern session per ACP session (same id, same record and ledger as the
// terminal), driven through the Session door. Requests map one to one onto tern: session/new
// opens (open-live.ts), session/load resumes and replays, session/prompt is one turn or one slash
// command (prompt-request.ts), session/cancel is Ctrl+C, session/set_mode is the permission mode.
import * as acp from "@agentclientprotocol/sdk";
import type { PermissionMode } from "../config/types.js";
import { type AcpAgentOptions, AgentState, type Live, modeState } from "./agent-state.js";
import { openLive } from "./open-live.js";
import { answerPrompt } from "./prompt-request.js";
import { replayUpdates } from "./replay.js";
import { acpStopReason, MODES } from "./stop-reason.js";

export { acpStopReason };
export type { AcpAgentOptions };

export function buildAgent(opts: AcpAgentOptions): acp.AgentApp {
  const state = new AgentState();
  const live = (sessionId: string) => state.live(sessionId);
  const send = (entry: Live, update: acp.SessionUpdate) => state.send(entry, update);
  const open = (cwd: string, mcpServers: acp.McpServer[], resume?: string) =>
    openLive(state, opts, cwd, mcpServers, resume);

  // After the session/new answer: the list, and again once the MCP servers' prompts are known.
  const announceCommands = (entry: Live) => setImmediate(() => entry.commands.refresh());

  return acp
    .agent({ name: "tern" })
    .onConnect((connection) => {
      state.client = connection.client;
      connection.closed.then(async () => {
        for (const entry of state.sessions.values()) await entry.session.close().catch(() => undefined);
      });
    })
    .onRequest("initialize", ({ params }) => {
      state.showsForms = Boolean(
        (params.clientCapabilities as { elicitation?: { form?: unknown } } | undefined)?.elicitation?.form,
      );
      return {
        protocolVersion: Math.min(params.protocolVersion, acp.PROTOCOL_VERSION),
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: false },
        },
        agentInfo: { name: "tern", version: opts.version },
        authMethods: [],
      };
    })
    .onRequest("session/new", async ({ params }) => {
      const entry = await open(params.cwd, params.mcpServers ?? []);
      announceCommands(entry);
      return { sessionId: entry.session.id, modes: modeState(entry.session) };
    })
    .onRequest("session/load", async ({ params }) => {
      const open_ = state.sessions.get(params.sessionId);
      if (open_)
        throw acp.RequestError.invalidParams(undefined, `session '${params.sessionId}' is already open`);
      const entry = await open(params.cwd, params.mcpServers ?? [], params.sessionId);
      const present = await entry.session.callPresenter();
      for (const update of replayUpdates(entry.session.transcript(), entry.cwd, present)) send(entry, update);
      await entry.sent;
      announceCommands(entry);
      return { modes: modeState(entry.session) };
    })
    .onRequest("session/set_mode", async ({ params }) => {
      const entry = live(params.sessionId);
      if (!MODES.some((m) => m.id === params.modeId))
        throw acp.RequestError.invalidParams(
          undefined,
          `unknown mode '${params.modeId}' (ask, auto-edit, yolo, plan)`,
        );
      await entry.session.send({ type: "set_mode", mode: params.modeId as PermissionMode });
      send(entry, { sessionUpdate: "current_mode_update", currentModeId: params.modeId });
      await entry.sent;
      return {};
    })
    .onNotification("session/cancel", ({ params }) => {
      const entry = state.sessions.get(params.sessionId);
      if (!entry) return;
      entry.commandAbort?.abort();
      entry.asks.abort();
      entry.asks = new AbortController();
      // ACP answers every pending prompt `cancelled`: queued follow-ups go too.
      entry.session.cancel({ queue: "drop" });
    })
    .onRequest("session/prompt", ({ params }) => answerPrompt(state, opts, params));
}
