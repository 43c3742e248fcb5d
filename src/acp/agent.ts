// The ACP agent: one tern session per ACP session (same id, same record and ledger as the
// terminal), driven through the Session door. Requests map one to one onto tern: session/new
// opens, session/load resumes and replays, session/prompt is one turn (or one slash command),
// session/cancel is Ctrl+C, session/set_mode is the permission mode.
import * as acp from "@agentclientprotocol/sdk";
import { redactDeep } from "../config/secrets.js";
import type { PermissionMode } from "../config/types.js";
import { type OpenOptions, openConfiguredSession } from "../engine/open.js";
import type { Session } from "../engine/session.js";
import type { TurnOutcome } from "../engine/door/outcome.js";

import { CommandList, remoteCommand, runRemoteCommand, SideQuestions, unknownCommand } from "./commands.js";
import { registerWorkflowCommands } from "../commands/workflow-commands.js";
import { acpApprover } from "./permission.js";
import { acpElicit } from "./elicit.js";
import { promptContent, promptText } from "./prompt-content.js";
import { replayUpdates } from "./replay.js";
import { checkCwd, clientToolSets, openFailure } from "./session-params.js";
import { UpdateStream } from "./updates.js";
import { addCost } from "../vocab/cost.js";
import { acpStopReason, MODES } from "./stop-reason.js";

export { acpStopReason };

export interface AcpAgentOptions {
  version: string;
  home?: string;
  /** Defaults for every session: `--model`, `--base-url`, `--system`, `--allow`, `--mode`. */
  defaults: Pick<OpenOptions, "model" | "baseUrl" | "system" | "allow" | "mode">;
}

interface Live {
  session: Session;
  cwd: string;
  config: Awaited<ReturnType<typeof openConfiguredSession>>["config"];
  cost: number | null;
  side: SideQuestions;
  /** Aborted by session/cancel while a slash command (a side question) runs. */
  commandAbort?: AbortController;
  /**
   * Aborted (and replaced) by session/cancel: a permission request still unanswered then counts
   * as cancelled, so the prompt ends even when the client never answers it.
   */
  asks: AbortController;
  /** Notifications go out in order; a response waits for the updates before it. */
  sent: Promise<void>;
  stream: UpdateStream;
  commands: CommandList;
}

export function buildAgent(opts: AcpAgentOptions): acp.AgentApp {
  const sessions = new Map<string, Live>();
  let client: acp.AgentContext | undefined;
  /** The client said at `initialize` that it shows forms (ACP elicitation, R-MCP-3). */
  let showsForms = false;

  const live = (sessionId: string): Live => {
    const found = sessions.get(sessionId);
    // ACP's answer for a session that is not active on this connection: -32002 with its id.
    if (!found)
      throw new acp.RequestError(-32002, `Resource not found: no open session '${sessionId}'`, { sessionId });
    return found;
  };
  const send = (entry: Live, update: acp.SessionUpdate): void => {
    const id = entry.session.id;
    // Slash-command output (/diff of a file holding a key) comes from no event: redacted here too.
    const safe = redactDeep(update);
    entry.sent = entry.sent
      .then(() => client?.notify("session/update", { sessionId: id, update: safe }))
      .catch(() => undefined);
  };
  const modeState = (session: Session): acp.SessionModeState => ({
    currentModeId: session.status().mode,
    availableModes: MODES,
  });

  async function open(cwd: string, mcpServers: acp.McpServer[], resume?: string): Promise<Live> {
    checkCwd(cwd);
    const toolSets = clientToolSets(mcpServers, (line) => process.stderr.write(`${line}\n`));
    let entry: Live | undefined;
    const opened = await openConfiguredSession({
      ...opts.defaults,
      home: opts.home,
      cwd,
      resume,
      toolSets,
      hooks: {
        approve: acpApprover(
          () => entry!.session.id,
          cwd,
          async (request) => {
            // Updates already sent (the tool call itself) reach the client before the question.
            await entry?.sent;
            if (!client) throw new Error("no client");
            const cancelled = entry?.asks.signal;
            return Promise.race([
              client.request("session/request_permission", request),
              whenAborted(cancelled),
            ]);
          },
        ),
        offersOutsideSandbox: true,
        elicit: acpElicit(
          () => entry!.session.id,
          () => showsForms,
          (method, params) => {
            if (!client) throw new Error("no client");
            return client.request(method as "elicitation/create", params as never);
          },
        ),
      },
    }).catch((err: unknown) => {
      throw openFailure(err, resume);
    });
    // The workspace's own commands and skills join the table this session's client is offered (R-WF-2).
    const workflow = registerWorkflowCommands({ cwd, home: opened.home, config: opened.config });
    for (const warning of [...opened.warnings, ...workflow]) process.stderr.write(`notice: ${warning}\n`);
    const session = opened.session;
    const cost = session
      .transcript()
      .reduce<number | null>(
        (sum, l) =>
          l.type !== "turn_end" || sum === null || l.cost === null
            ? l.type === "turn_end"
              ? null
              : sum
            : sum + l.cost,
        0,
      );
    entry = {
      session,
      cwd,
      config: opened.config,
      cost,
      side: new SideQuestions(),
      sent: Promise.resolve(),
      asks: new AbortController(),
      stream: new UpdateStream(
        cwd,
        (u) => send(entry!, u),
        () => session.todos(),
      ),
      commands: new CommandList(session, (u) => send(entry!, u)),
    };
    const created = entry;
    session.subscribe((event) => {
      // The bill as the terminal's /cost counts it: turns and compactions.
      if (event.type === "turn_end") created.cost = addCost(created.cost, event.cost);
      if (event.type === "compaction" && event.cost !== undefined)
        created.cost = addCost(created.cost, event.cost);
      created.stream.handle(event);
    });
    sessions.set(session.id, entry);
    return entry;
  }

  // After the session/new answer: the list, and again once the MCP servers' prompts are known.
  const announceCommands = (entry: Live) => setImmediate(() => entry.commands.refresh());

  return acp
    .agent({ name: "tern" })
    .onConnect((connection) => {
      client = connection.client;
      connection.closed.then(async () => {
        for (const entry of sessions.values()) await entry.session.close().catch(() => undefined);
      });
    })
    .onRequest("initialize", ({ params }) => {
      showsForms = Boolean(
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
      const open_ = sessions.get(params.sessionId);
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
      const entry = sessions.get(params.sessionId);
      if (!entry) return;
      entry.commandAbort?.abort();
      entry.asks.abort();
      entry.asks = new AbortController();
      // ACP answers every pending prompt `cancelled`: queued follow-ups go too.
      entry.session.cancel({ queue: "drop" });
    })
    .onRequest("session/prompt", async ({ params }) => {
      const entry = live(params.sessionId);
      const session = entry.session;
      const content = promptContent(params.prompt, session.status().model.endpoint.api);
      const text = promptText(content).trim();
      const unknown = unknownCommand(text);
      if (unknown) {
        // A mistyped command is answered, never sent to the model as a prompt.
        send(entry, {
          sessionUpdate: "agent_message_chunk",
          content: { type: "text", text: `${unknown}\n` },
        });
        await entry.sent;
        return { stopReason: "end_turn" };
      }
      if (remoteCommand(text)) {
        const modeBefore = session.status().mode;
        entry.commandAbort = new AbortController();
        const outcome = await runRemoteCommand(text, {
          side: entry.side,
          signal: entry.commandAbort.signal,
          session,
          config: entry.config,
          home: opts.home ?? process.env.TERN_HOME ?? "",
          cwd: entry.cwd,
          baseUrl: opts.defaults.baseUrl,
          cost: () => entry.cost,
          say: (out) =>
            send(entry, {
              sessionUpdate: "agent_message_chunk",
              content: { type: "text", text: out.endsWith("\n") ? out : `${out}\n` },
            }),
        });
        entry.commandAbort = undefined;
        entry.commands.refresh();
        const mode = session.status().mode;
        if (mode !== modeBefore) send(entry, { sessionUpdate: "current_mode_update", currentModeId: mode });
        await entry.sent;
        return { stopReason: outcome ? stopOrThrow(outcome) : "end_turn" };
      }
      // While a turn runs this is a follow-up (R-TURN-7): it joins that turn after its tool batch
      // (answered with that turn's stop) or starts the next; a cancel drops it (`cancelled`).
      const outcome = await session.send({ type: "prompt", content });
      await entry.sent;
      return { stopReason: stopOrThrow(outcome) };
    });
}

function stopOrThrow(outcome: TurnOutcome): acp.StopReason {
  if (outcome.stopReason === "failed") {
    const error = outcome.error;
    throw acp.RequestError.internalError(
      error ? { class: error.class } : undefined,
      error ? error.message : "the turn failed",
    );
  }
  return acpStopReason(outcome.stopReason);
}

/** Settles as a cancelled permission answer once `signal` aborts (never, without one). */
function whenAborted(signal: AbortSignal | undefined): Promise<acp.RequestPermissionResponse> {
  return new Promise((resolve) => {
    if (!signal) return;
    const cancelled = () => resolve({ outcome: { outcome: "cancelled" } });
    if (signal.aborted) cancelled();
    else signal.addEventListener("abort", cancelled, { once: true });
  });
}
