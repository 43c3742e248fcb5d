// Opening one ACP session: a tern session through the engine's opener (the library's), with
// approvals and MCP forms asked of the client, the workspace's custom commands offered, and the
// session's events streamed to the client as updates.
import type * as acp from "@agentclientprotocol/sdk";
import { registerWorkflowCommands } from "../commands/workflow-commands.js";
import { openConfiguredSession } from "../engine/open.js";
import { addCost } from "../vocab/cost.js";
import type { AcpAgentOptions, AgentState, Live } from "./agent-state.js";
import { CommandList, SideQuestions } from "./commands.js";
import { acpElicit } from "./elicit.js";
import { acpApprover } from "./permission.js";
import { checkCwd, clientToolSets, openFailure } from "./session-params.js";
import { UpdateStream } from "./updates.js";

export async function openLive(
  state: AgentState,
  opts: AcpAgentOptions,
  cwd: string,
  mcpServers: acp.McpServer[],
  resume?: string,
): Promise<Live> {
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
          if (!state.client) throw new Error("no client");
          const cancelled = entry?.asks.signal;
          return Promise.race([
            state.client.request("session/request_permission", request),
            whenAborted(cancelled),
          ]);
        },
      ),
      offersOutsideSandbox: true,
      elicit: acpElicit(
        () => entry!.session.id,
        () => state.showsForms,
        (method, params) => {
          if (!state.client) throw new Error("no client");
          return state.client.request(method as "elicitation/create", params as never);
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
      (u) => state.send(entry!, u),
      () => session.todos(),
    ),
    commands: new CommandList(session, (u) => state.send(entry!, u)),
  };
  const created = entry;
  session.subscribe((event) => {
    // The bill as the terminal's /cost counts it: turns and compactions.
    if (event.type === "turn_end") created.cost = addCost(created.cost, event.cost);
    if (event.type === "compaction" && event.cost !== undefined)
      created.cost = addCost(created.cost, event.cost);
    created.stream.handle(event);
  });
  state.sessions.set(session.id, entry);
  return entry;
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
