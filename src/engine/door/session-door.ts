// The door's methods in one place: what `Session` (engine/session.ts) does for a front end. Read
// with commands.ts, events.ts and requests.ts, it is every way in and out; a sub-agent's handle
// (`ChildSessionHandle`) is a part of it, so a child is driven through the same door.
import type { ToolSetConfig } from "../../config/types.js";
import type { McpPrompt } from "../../tools/mcp/mcp-prompts.js";
import type { TodoItem } from "../../tools/types.js";
import type { ContentPart } from "../../vocab/messages.js";
import type {
  CallPresenter,
  CompactResult,
  FileCommand,
  FollowUp,
  JobSummary,
  QueuedFollowUp,
  QueueOnCancel,
  SessionCommand,
  SessionStatus,
  TranscriptLine,
  UndoReport,
} from "./commands.js";
import type { Listener } from "./events.js";
import type { TurnOutcome } from "./outcome.js";
import type { SideEvent, SideExchange, SideResult } from "./side.js";

export interface SessionDoor {
  readonly id: string;
  /** Queue a command; it runs after every command sent before it. */
  send(command: Extract<SessionCommand, { type: "prompt" | "retry" }>): Promise<TurnOutcome>;
  send(command: Extract<SessionCommand, { type: "compact" }>): Promise<CompactResult>;
  send(command: FileCommand): Promise<UndoReport>;
  send(command: SessionCommand): Promise<unknown>;
  /**
   * A follow-up at once, busy or not (R-UI-1, R-TURN-7): queued, joined or started by the engine.
   * A plain prompt `send` while busy does the same; this stays for the library's callers.
   */
  followUp(content: ContentPart[], opts?: { text?: string }): FollowUp;
  followUps(): { queued: QueuedFollowUp[]; held: boolean };
  takeBackFollowUp(): QueuedFollowUp | undefined;
  dropFollowUps(): void;
  sendFollowUpsNow(): void;
  /** Interrupt the running command; `queue` says what happens to the follow-ups (default `hold`). */
  cancel(opts?: { queue?: QueueOnCancel }): void;
  idle(): Promise<void>;
  close(): Promise<void>;
  /** Events out, in commit order; a sub-agent's only to a listener that asks for `children`. */
  subscribe(listener: Listener, opts?: { children?: boolean }): () => void;
  askSide(
    question: string,
    opts: { history: SideExchange[]; signal: AbortSignal; onEvent(event: SideEvent): void },
  ): Promise<SideResult>;
  // Read-only queries.
  status(): SessionStatus;
  transcript(): readonly TranscriptLine[];
  todos(): readonly TodoItem[];
  jobs(): JobSummary[];
  killJob(id: string): Promise<void>;
  diff(opts: { turn?: number; color: boolean }): Promise<string>;
  callPresenter(): Promise<CallPresenter>;
  mcp(args: string[]): Promise<string>;
  startToolSets(configs: ToolSetConfig[]): Promise<string[]>;
  mcpPrompts(): Promise<McpPrompt[]>;
  mcpPrompt(prompt: McpPrompt, words: readonly string[]): Promise<string>;
  mcpResources(): Promise<string[]>;
}

/** What a parent's `task` call holds of its child: a part of the same door. */
export type ChildSessionHandle = Pick<SessionDoor, "id" | "send" | "cancel" | "subscribe" | "close">;
