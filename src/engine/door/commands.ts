// The door's vocabulary: every command a front end can send a `Session` and what it resolves to.
// Events out are `events.ts`; the requests the engine makes of a person are `requests.ts`.
import type { PermissionMode, ResolvedModel } from "../../config/types.js";
import type { ContentPart } from "../../vocab/messages.js";
import type { JobInfo } from "../../jobs/job.js";
import type { RecordLine } from "../../record/types.js";
import type { CallPresentation } from "./events.js";
import type { RestoredPath } from "../../checkpoint/restore.js";
import type { TurnOutcome } from "./outcome.js";

/**
 * What `cancel` does to the follow-up queue: `hold` keeps it but moves nothing until
 * `sendFollowUpsNow` (Ctrl+C, R-UI-5); `keep` lets it move on as usual (the next queued text
 * starts when the interrupted turn has ended); `drop` empties it (ACP's session/cancel).
 */
export type QueueOnCancel = "hold" | "keep" | "drop";

export type SessionCommand =
  /** `compact`: run both compaction stages before the first round (`/compact`, `tern run --compact`). */
  | {
      type: "prompt";
      content: ContentPart[];
      compact?: boolean;
      output?: OutputContract;
      allow?: string[];
      /** A custom command's prompt: its `!`cmd`` run first, output inlined (command-shell.ts). */
      shell?: boolean;
      /**
       * The model this turn runs on (a custom command's `model:`, R-WF-2); the session's own
       * model is back for the turn after it.
       */
      model?: ResolvedModel;
      /**
       * Sent while the session is busy, a prompt is a follow-up (R-TURN-7): it joins the running
       * turn after a tool batch or starts the next. `ownTurn` (R-AUTO-2's JSON lines) makes it wait
       * for a turn of its own instead, as a prompt with `compact`, `output`, `allow`, `shell` or
       * `model` always does. Like any follow-up it waits while a `cancel` holds the queue (until
       * `sendFollowUpsNow`; `cancel({queue: "keep"})` lets it move on).
       */
      ownTurn?: boolean;
      /** What the follow-up panel shows for it while it waits (default: its text). */
      text?: string;
    }
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
  /**
   * The files only (`/rewind N files-only`, the rewind picker's "files only", R-UI-29): files back to
   * how they were after turn N (before turn N+1), every turn kept in the context; the next prompt's
   * request tells the model which files were restored. Refuses as `undo` does (files changed since
   * the newest snapshot, unless `force`); `redo` takes it back. Resolves with no turns.
   */
  | { type: "restore_files"; turn: number; force?: boolean }
  /** `/redo`: take back the newest undo, files and turns. */
  | { type: "redo"; force?: boolean };

/** The commands on the files' checkpoints: each resolves to an {@link UndoReport}. */
export type FileCommand = Extract<
  SessionCommand,
  { type: "undo" | "rewind_files" | "restore_files" | "redo" }
>;

/** Estimated tokens (chars/4) of the model context before and after `/compact`; equal when nothing was compacted. */
export interface CompactResult {
  before: number;
  after: number;
}

/** One line of the session's transcript (a record line); front ends read, never write. */
export type TranscriptLine = RecordLine;

/** A background job as a front end sees it. */
export type JobSummary = JobInfo & { lastLines: string[] };

/** What a front end may know about the session without reaching into it. */
export interface SessionStatus {
  id: string;
  model: ResolvedModel;
  mode: PermissionMode;
  /** The newest turn number (0 before the first turn). */
  lastTurn: number;
  /** The language servers the session started or tried (R-LSP-4, `/lsp`). */
  languageServers?: LanguageServerStatus[];
}

/** One language server of a session, for `/lsp`. */
export interface LanguageServerStatus {
  name: string;
  root: string;
  state: string;
  reason?: string;
  pid?: number;
  openFiles: number;
}

/** A recorded call's presentation, as its tool gives it (`Session.callPresenter`). */
export type CallPresenter = (call: { name: string; arguments: string }) => CallPresentation;

/**
 * `tern run --output-schema` (R-AUTO-1): the turn's final answer must be one JSON value valid
 * against this schema. The validator is the caller's, so the engine loads none for turns without one.
 */
export interface OutputContract {
  /** The JSON Schema as the file gave it (sent to providers that enforce it themselves). */
  schema: Record<string, unknown>;
  /** The validation errors of a parsed value, one line each; empty when it is valid. */
  validate(value: unknown): string[];
}

/** A queued follow-up as a front end may see it. */
export interface QueuedFollowUp {
  id: number;
  /** What the person typed, as their front end showed it (paste placeholders kept). */
  text: string;
}

/** What `Session.followUp` hands back. */
export interface FollowUp {
  readonly id: number;
  /**
   * Settles when the turn the follow-up joined or started has ended, with that turn's outcome;
   * `undefined` when it was dropped or taken back before it reached a turn. Rejects only when
   * that turn threw (a bug); a caller that never awaits it cannot get an unhandled rejection.
   */
  readonly outcome: Promise<TurnOutcome | undefined>;
}

/** What `undo`, `rewind_files`, `restore_files` and `redo` resolve to. */
export interface UndoReport {
  /** The turns withdrawn (undo) or put back (redo). */
  turns: number[];
  restored: RestoredPath[];
}
