// What the ACP agent keeps per connection: the client, whether it shows forms, and the live tern
// sessions by id, with the one way updates go out to the client (in order, redacted).
import type * as acp from "@agentclientprotocol/sdk";
import { RequestError } from "@agentclientprotocol/sdk";
import { redactDeep } from "../config/secrets.js";
import type { OpenOptions, openConfiguredSession } from "../engine/open.js";
import type { Session } from "../engine/session.js";
import type { CommandList, SideQuestions } from "./commands.js";
import { MODES } from "./stop-reason.js";
import type { UpdateStream } from "./updates.js";

export interface AcpAgentOptions {
  version: string;
  home?: string;
  /** Defaults for every session: `--model`, `--base-url`, `--system`, `--allow`, `--mode`. */
  defaults: Pick<OpenOptions, "model" | "baseUrl" | "system" | "allow" | "mode">;
}

export interface Live {
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

export class AgentState {
  readonly sessions = new Map<string, Live>();
  client: acp.AgentContext | undefined;
  /** The client said at `initialize` that it shows forms (ACP elicitation, R-MCP-3). */
  showsForms = false;

  live(sessionId: string): Live {
    const found = this.sessions.get(sessionId);
    // ACP's answer for a session that is not active on this connection: -32002 with its id.
    if (!found)
      throw new RequestError(-32002, `Resource not found: no open session '${sessionId}'`, { sessionId });
    return found;
  }

  send(entry: Live, update: acp.SessionUpdate): void {
    const id = entry.session.id;
    // Slash-command output (/diff of a file holding a key) comes from no event: redacted here too.
    const safe = redactDeep(update);
    entry.sent = entry.sent
      .then(() => this.client?.notify("session/update", { sessionId: id, update: safe }))
      .catch(() => undefined);
  }
}

export const modeState = (session: Session): acp.SessionModeState => ({
  currentModeId: session.status().mode,
  availableModes: MODES,
});
