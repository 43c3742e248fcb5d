// One async task per session (SPEC §4): commands go in through a queue and run one at a time,
// events come out through the bus, cancellation is an AbortSignal per running command.
import type { PermissionMode, ResolvedModel } from "../config/types.js";
import { REDACTED, redactDeep } from "../config/secrets.js";
import { createAdapter } from "../provider/index.js";
import { pruneClearedImages } from "../record/attachments.js";
import { settleProcessKills } from "../tools/builtin/index.js";
import type { RecordLine } from "../record/types.js";
import type { TodoItem } from "../tools/types.js";
import type { JobInfo } from "../jobs/job.js";
import type { EventBus, Listener } from "./bus.js";
import { mcpCommand, mcpPromptText, mcpPrompts } from "./mcp-command.js";
import type { McpPrompt } from "../tools/mcp/mcp-prompts.js";
import type { NewRecord } from "../record/types.js";
import { newestTree } from "./undo/checkpoints.js";
import type { SessionCore } from "./core.js";
import type { SideExchange, SideEvent, SideResult } from "./side.js";
import type { TurnOutcome } from "./turn/stop.js";
import type { OutputContract } from "./turn/output-contract.js";
import { runTurn } from "./turn/turn.js";
import { hookedPrompt } from "./hook-prompt.js";
import type { UndoReport } from "./undo/undo.js";
import { UndoError } from "./undo/undo-error.js";
import type { ContentPart } from "../vocab/messages.js";

export type SessionCommand =
  /** `compact`: run both compaction stages before the first round (`/compact`, `tern run --compact`). */
  | { type: "prompt"; content: ContentPart[]; compact?: boolean; output?: OutputContract; allow?: string[] }
  | { type: "retry" }
  | { type: "clear" }
  | { type: "rewind"; turn: number }
  /** `/yolo once` (R-TOOL-2): approve everything in the next turn; the turn loop clears it at its end. */
  | { type: "yolo_once" }
  /** Permission mode for the rest of the session (`/yolo`); deny rules still apply. */
  | { type: "set_mode"; mode: PermissionMode }
  /** Switch the model for the following turns; the `config` record makes a resume keep it. */
  | { type: "set_model"; model: ResolvedModel }
  /**
   * `/compact` now, outside a turn (R-COMP-1): both stages whatever the size. Resolves to
   * {@link CompactResult}; rejects with a ProviderError when the summary request fails (class
   * `cancelled` after `cancel()`). Its summary gets a ledger row of its own (kind `compaction`, R-REC-8).
   */
  | { type: "compact" }
  /** `/undo [N]`: files back to before the last N turns, those turns withdrawn (R-CKPT-2). */
  | { type: "undo"; turns: number; force?: boolean }
  /**
   * `/rewind N files`: files back to how they were after turn N and the turns after it withdrawn,
   * also when a `rewind` already withdrew them from the context (R-CKPT-3).
   */
  | { type: "rewind_files"; turn: number; force?: boolean }
  /** `/redo`: take back the newest undo, files and turns. */
  | { type: "redo"; force?: boolean };

/** Estimated tokens (chars/4) of the model context before and after `/compact`; equal when nothing was compacted. */
export interface CompactResult {
  before: number;
  after: number;
}

/** One line of the session's transcript (a record line); front ends read, never write. */
export type TranscriptLine = RecordLine;
export { renderTodos } from "../tools/todos-text.js";

/** A background job as a front end sees it. */
export type JobSummary = JobInfo & { lastLines: string[] };

/** What a front end may know about the session without reaching into it. */
export interface SessionStatus {
  id: string;
  model: ResolvedModel;
  mode: PermissionMode;
  /** The newest turn number (0 before the first turn). */
  lastTurn: number;
}

/**
 * The one door between the engine and its front ends: commands in (`send`, `cancel`,
 * `askSide`), events out (`subscribe`), read-only queries (`status`, `transcript`, `todos`).
 * The engine state behind it stays private, so no front end can change it around the queue.
 */
export class Session {
  private tail: Promise<unknown> = Promise.resolve();
  private running: AbortController | undefined;
  private closed = false;

  constructor(
    private readonly core: SessionCore,
    private readonly bus: EventBus,
    private readonly onClose: () => Promise<void>,
  ) {}

  /** Behind the door, for `coreOf` (engine tests) only. */
  static internals(session: Session): SessionCore {
    return session.core;
  }

  get id(): string {
    return this.core.id;
  }

  status(): SessionStatus {
    return {
      id: this.core.id,
      model: withoutSecrets(this.core.model),
      mode: this.core.policy.getMode(),
      lastTurn: this.core.fold.lastTurn,
    };
  }

  /** Every record line of the session so far (the archive; compaction not applied). */
  transcript(): readonly TranscriptLine[] {
    return this.core.fold.archive;
  }

  todos(): readonly TodoItem[] {
    return this.core.todos.get();
  }

  /** Background jobs (R-JOB-2, `/jobs`): each with its state and its last lines of output. */
  jobs(): JobSummary[] {
    return (this.core.jobs?.list() ?? []).map((job) => ({ ...job.info(), lastLines: job.lastLines(3) }));
  }

  /** Ends one background job's process group (`/jobs kill <id>`); rejects naming a job that is not there. */
  async killJob(id: string): Promise<void> {
    const job = (await this.core.jobTable()).find(id);
    if (typeof job === "string") throw new RangeError(job);
    await job.stop("killed");
  }

  /** `/mcp [reconnect <name>]` (R-EXT): the MCP servers with state and tools; reconnects one. */
  mcp(args: string[]): Promise<string> {
    return mcpCommand(this.core, args);
  }

  /** MCP prompts (R-WF-2, `/mcp__<set>__<prompt>`), once the servers have started. */
  mcpPrompts(): Promise<McpPrompt[]> {
    return mcpPrompts(this.core);
  }

  /** One MCP prompt's text, its arguments by position. */
  mcpPrompt(prompt: McpPrompt, words: readonly string[]): Promise<string> {
    return mcpPromptText(this.core, prompt, words);
  }

  /** A side question (`/btw`, R-SIDE-1..4): runs beside the queue and commits nothing. */
  askSide(
    question: string,
    opts: { history: SideExchange[]; signal: AbortSignal; onEvent(event: SideEvent): void },
  ): Promise<SideResult> {
    // side.ts and compaction.ts load on first use (a headless run never asks a side question).
    return import("./side.js").then(({ askSide }) => askSide(this.core, question, opts));
  }

  subscribe(listener: Listener): () => void {
    return this.bus.subscribe(listener);
  }

  /** Queue a command; it runs after every command sent before it. */
  send(command: Extract<SessionCommand, { type: "prompt" | "retry" }>): Promise<TurnOutcome>;
  send(command: Extract<SessionCommand, { type: "compact" }>): Promise<CompactResult>;
  send(command: Extract<SessionCommand, { type: "undo" | "rewind_files" | "redo" }>): Promise<UndoReport>;
  send(command: SessionCommand): Promise<unknown>;
  send(command: SessionCommand): Promise<unknown> {
    const result = this.tail.then(() => this.execute(command));
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Interrupt the running command at once (Ctrl+C, SIGINT). Queued commands still run. */
  cancel(): void {
    this.running?.abort();
  }

  /** A unified diff of what this session (or one turn) changed in the files (R-CKPT-3). */
  async diff(opts: { turn?: number; color: boolean }): Promise<string> {
    const checkpoints = this.core.checkpoints;
    if (!checkpoints) throw new UndoError("checkpoints are off (config checkpoints.enabled)");
    await checkpoints.settle();
    const { diffTurns } = await import("./undo/undo.js");
    return diffTurns(await checkpoints.repository(), this.core.fold.archive, opts);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cancel();
    await this.tail;
    // R-JOB-2: every job's process group ends before the record closes and tern may exit.
    await this.core.jobs?.close();
    await this.onClose();
    // A killed command's TERM-ignoring children get SIGKILL before tern may exit (R-BASH-1).
    await settleProcessKills();
  }

  private setModel(model: ResolvedModel): void {
    const core = this.core;
    core.model = model;
    core.adapter = createAdapter(model.endpoint);
    if (core.fold.model !== model.id) core.commit({ type: "config", model: model.id });
  }

  private async execute(command: SessionCommand): Promise<unknown> {
    if (this.closed) throw new Error("session is closed");
    const controller = new AbortController();
    this.running = controller;
    try {
      switch (command.type) {
        case "prompt": {
          const input = await hookedPrompt(this.core, {
            content: command.content,
            compactFirst: command.compact,
            output: command.output,
            allow: command.allow,
          });
          return "stopReason" in input ? input : await runTurn(this.core, input, controller.signal);
        }
        case "retry":
          return await runTurn(this.core, { content: [], retry: true }, controller.signal);
        case "clear":
          await this.core.jobs?.endAll();
          this.core.commit({ type: "cleared" });
          // R-REC-5: images only the cleared part mentioned go now; the archive export shows a placeholder.
          pruneClearedImages(this.core.dir, this.core.fold.archive);
          this.core.hookPoints?.sessionStart("clear");
          return undefined;
        case "yolo_once":
          this.core.policy.setYoloOnce(true);
          return undefined;
        case "set_mode":
          this.core.policy.setMode(command.mode);
          return undefined;
        case "rewind":
          if (!Number.isInteger(command.turn) || command.turn < 0 || command.turn > this.core.fold.lastTurn)
            throw new RangeError(`rewind: no turn ${command.turn} (turns 0..${this.core.fold.lastTurn})`);
          this.core.commit({ type: "rewound", toTurn: command.turn });
          return undefined;
        case "set_model":
          this.setModel(command.model);
          return undefined;
        case "compact":
          await this.core.hookPoints?.preCompact("manual");
          return await (await import("./compaction/compaction.js")).compactNow(this.core, controller.signal);
        case "undo":
        case "rewind_files":
        case "redo": {
          const checkpoints = this.core.checkpoints;
          if (!checkpoints) throw new UndoError("checkpoints are off (config checkpoints.enabled)");
          await checkpoints.settle();
          const repo = await checkpoints.repository();
          // undo.ts (and restoring files) loads with the first undo, redo or rewind.
          const { undoTurns, restoreAfterTurn, redoUndo } = await import("./undo/undo.js");
          const access = {
            archive: this.core.fold.archive,
            commit: (r: NewRecord) => void this.core.commit(r),
          };
          const force = command.force === true;
          const report =
            command.type === "undo"
              ? await undoTurns(repo, access, { turns: command.turns, force })
              : command.type === "rewind_files"
                ? await restoreAfterTurn(repo, access, { turn: command.turn, force })
                : await redoUndo(repo, access, { force });
          checkpoints.restoredTo(newestTree(this.core.fold.archive));
          return report;
        }
      }
    } finally {
      this.running = undefined;
    }
  }
}

/** The engine state behind a session, for engine tests only; front ends must not use it. */
export function coreOf(session: Session): SessionCore {
  return Session.internals(session);
}

/**
 * The model as a query shows it (SPEC §10: no library query returns a key or token value): the
 * API key left out, header values (an `Authorization` token) blanked, anything else a key's value
 * spelled redacted. The session keeps the real one for its requests.
 */
function withoutSecrets(model: ResolvedModel): ResolvedModel {
  const { apiKey: _key, headers, ...endpoint } = model.endpoint;
  const blanked = Object.fromEntries(Object.keys(headers).map((name) => [name, REDACTED]));
  return redactDeep({ ...model, endpoint: { ...endpoint, headers: blanked } });
}
