// The shape of the UI state and its starting value. Types only plus `initialState`: the
// reducers, the views and the controller all read this module, and it imports none of them.
import type { ApprovalState } from "./approval.js";
import type { Menu } from "./completion.js";
import type { PickerState } from "./picker.js";
import type { ToolRun } from "./tool-view.js";

export type ItemKind =
  | "user"
  | "assistant"
  | "tool"
  | "info"
  | "error"
  | "turn"
  | "retry"
  | "interrupted"
  /** A tool call's whole output, asked for with Ctrl+O. */
  | "output";

/** A committed transcript item: written once to the scrollback, never redrawn. */
export interface Item {
  id: number;
  kind: ItemKind;
  /** Plain text (for an assistant item: its markdown source). */
  text: string;
  /** A finished tool call, drawn as its readable line and output (tool items only). */
  tool?: ToolRun;
  /** A piece of a streamed answer that continues the list above it: no blank row between. */
  joined?: boolean;
}

/** `since`: when the phase began (ms), for the elapsed time the progress row shows. */
export type Phase =
  | { kind: "thinking"; since?: number }
  | { kind: "tool"; name: string; since?: number; detail?: string }
  | { kind: "approval"; since?: number }
  | { kind: "compacting"; since?: number }
  /** `of`: the attempts the retry policy allows in all (maxRetries + 1), when known. */
  | { kind: "retry"; attempt: number; of?: number; until: number; message?: string };

/** The running turn, for the progress row's elapsed time and live token count (R-UI-15). */
export interface TurnProgress {
  start: number;
  /** Output tokens of finished rounds (from usage). */
  tokens: number;
  /** Characters streamed since the last usage, for an estimate. */
  roundChars: number;
  /** When the running round began and the attempt it is on, for the failure line (R-UI-20). */
  roundStart?: number;
  attempt?: number;
}

export interface SideExchange {
  question: string;
  answer: string;
}

export interface SidePending {
  question: string;
  text: string;
  reasoning: boolean;
  error?: string;
}

export interface SideState {
  open: boolean;
  /** Answered exchanges of this process, oldest first. */
  thread: SideExchange[];
  /** Which exchange the panel shows when nothing is pending. */
  index: number;
  /** Rows of that finished answer scrolled past (it is read from the top). */
  scroll: number;
  pending: SidePending | null;
}

export interface LimitPrompt {
  limit: string;
  used: number;
  allowed: number;
}

export interface StatusInfo {
  model: string;
  sessionId: string;
  contextWindow: number;
  /** The reasoning level in force (R-PROV-10); "" = not known yet. */
  thinking?: string;
  /** Prompt tokens of the newest usage: what the context holds now. */
  lastPrompt: number;
  tokens: number;
  /** USD of the finished turns and `/compact` summaries (the ledger's rows); null once a price was unknown. */
  cost: number | null;
  /** USD of side questions, shown apart: they stay out of the ledger (R-SIDE-4). */
  sideCost: number | null;
  /** The permission mode (R-UI-24); "" = not known yet. */
  mode?: string;
  /** Model attempts the retry policy allows per round (maxRetries + 1), for `Attempt K of N`. */
  maxAttempts?: number;
  /** Background jobs running now (R-JOB-2), counted from job_start / job_end events. */
  jobs?: number;
  /** Errors the language servers last reported per file the session edited (R-LSP-4, lsp_diagnostics). */
  lspErrors?: Record<string, number>;
}

export interface UiState {
  items: Item[];
  nextId: number;
  /** The streaming text of the current round. */
  live: string;
  /** Reasoning of the running round, shown dimmed until its answer starts (then collapsed). */
  liveReasoning: string;
  /** How much of `live` is already committed to the scrollback (complete blocks). */
  flushed: number;
  /**
   * The next committed piece of `live` continues the list the last one ended in (stream-cuts.ts);
   * `number`: what its first item shows, in a numbered list.
   */
  joinNext?: { number?: number };
  /** Calls of the current batch that have not finished. */
  running: ToolRun[];
  turn: TurnProgress | null;
  busy: boolean;
  phase: Phase | null;
  /** The engine's follow-up queue as its last `follow_up` event drew it (R-UI-1), oldest first. */
  queue: string[];
  /** After Ctrl+C the queue is kept but not sent until an empty Enter (R-UI-5). */
  held: boolean;
  composer: string;
  /** Where typing goes in the composer: an index into `composer` (0..length). */
  cursor: number;
  /** The completion menu under the composer (`/` commands, `@` files), if open. */
  menu: Menu | null;
  /** Ctrl+R's history search is open: the composer holds its query, the menu its matches. */
  searching?: boolean;
  approval: ApprovalState | null;
  limit: LimitPrompt | null;
  /** `exit_plan` waits for the person's pick (plan-flow.ts). */
  planReview: boolean;
  /** An MCP server's form asks this question (elicit-flow.ts, R-MCP-3). */
  question?: string;
  side: SideState;
  status: StatusInfo;
  /** The `statusLine` command's line, shown instead of the built-in status line (R-UI-23). */
  statusLine?: string;
  /** The session picker of `/resume` without an id (R-UI-17), while it is open. */
  picker?: PickerState | null;
  /** The composer's vim mode (R-UI-30), shown in the status line; absent when vim keys are off. */
  vim?: "normal" | "insert";
  /** A hint that holds only for a moment (the Ctrl+C exit hint): live region only, never the transcript. */
  hint?: string;
}

export function initialState(
  status: Omit<StatusInfo, "lastPrompt" | "tokens" | "cost" | "sideCost">,
): UiState {
  return {
    items: [],
    nextId: 1,
    live: "",
    liveReasoning: "",
    flushed: 0,
    running: [],
    turn: null,
    busy: false,
    phase: null,
    queue: [],
    held: false,
    composer: "",
    cursor: 0,
    menu: null,
    approval: null,
    limit: null,
    planReview: false,
    side: { open: false, thread: [], index: 0, scroll: 0, pending: null },
    status: { ...status, lastPrompt: 0, tokens: 0, cost: 0, sideCost: 0 },
  };
}
