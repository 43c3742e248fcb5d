// The UI state and its pure reducer: engine events and UI actions in, state out. Components
// only draw this state; time comes in with the actions (`now`) so the reducer stays pure.
import type { EngineEvent } from "../engine/events.js";
import { stripControlSequences } from "../engine/terminal-text.js";
import {
  type ApprovalAnswer,
  type ApprovalCall,
  type ApprovalState,
  answer,
  newApproval,
} from "./approval.js";
import { commitLive, hostedToolLine, money, onEvent, print } from "./state-events.js";
import type { ToolRun } from "./tool-view.js";
import type { Menu } from "./completion.js";
import { addCost } from "../vocab/cost.js";

export { hostedToolLine, money };

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
}

/** `since`: when the phase began (ms), for the elapsed time the progress row shows. */
export type Phase =
  | { kind: "thinking"; since?: number }
  | { kind: "tool"; name: string; since?: number; detail?: string }
  | { kind: "approval"; since?: number }
  | { kind: "compacting"; since?: number }
  | { kind: "retry"; attempt: number; until: number; message?: string };

/** The running turn, for the progress row's elapsed time and live token count (R-UI-15). */
export interface TurnProgress {
  start: number;
  /** Output tokens of finished rounds (from usage). */
  tokens: number;
  /** Characters streamed since the last usage, for an estimate. */
  roundChars: number;
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
  /** Calls of the current batch that have not finished. */
  running: ToolRun[];
  turn: TurnProgress | null;
  busy: boolean;
  phase: Phase | null;
  /** Follow-ups typed while busy (R-UI-1), oldest first. */
  queue: string[];
  /** After Ctrl+C the queue is kept but not sent until an empty Enter (R-UI-5). */
  held: boolean;
  composer: string;
  /** Where typing goes in the composer: an index into `composer` (0..length). */
  cursor: number;
  /** The completion menu under the composer (`/` commands, `@` files), if open. */
  menu: Menu | null;
  approval: ApprovalState | null;
  limit: LimitPrompt | null;
  side: SideState;
  status: StatusInfo;
  /** Rounds of the running turn that asked for tools (R-UI-9). */
  toolRounds: number;
}

export type UiAction =
  | { type: "event"; event: EngineEvent; now: number }
  | { type: "print"; kind: ItemKind; text: string }
  /** Replaces the composer text; the cursor goes to `cursor`, else to the end. */
  | { type: "compose"; text: string; cursor?: number }
  | { type: "enqueue"; text: string }
  | { type: "dequeue" }
  /** The newest queued follow-up leaves the queue (it went back into the composer). */
  | { type: "take_back" }
  | { type: "menu"; menu: Menu | null }
  | { type: "drop_queue" }
  | { type: "hold"; held: boolean }
  | { type: "busy"; busy: boolean; phase?: Phase | null }
  | { type: "approval"; calls: ApprovalCall[] | null; now?: number }
  /** Answers the prompt's current call (`all`: every call not answered yet). */
  | { type: "approval_answer"; answer: ApprovalAnswer; all?: boolean }
  | { type: "approval_scroll"; approval: ApprovalState }
  | { type: "limit"; prompt: LimitPrompt | null }
  /** `priced: false`: the model has no known price, so the cost shows `$?` (R-UI-15). */
  | {
      type: "session";
      model: string;
      sessionId: string;
      contextWindow: number;
      thinking?: string;
      priced?: boolean;
    }
  | { type: "side_ask"; question: string }
  | { type: "side_event"; kind: "reasoning_delta" | "text_delta"; text: string }
  | { type: "side_done"; ok: boolean; text: string; error?: string; cost?: number | null }
  | { type: "side_close" }
  | { type: "side_cancel" }
  | { type: "side_step"; delta: number }
  | { type: "side_clear" };

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
    side: { open: false, thread: [], index: 0, pending: null },
    status: { ...status, lastPrompt: 0, tokens: 0, cost: 0, sideCost: 0 },
    toolRounds: 0,
  };
}

function side(state: UiState, patch: Partial<SideState>): UiState {
  return { ...state, side: { ...state.side, ...patch } };
}

export function reduce(state: UiState, action: UiAction): UiState {
  switch (action.type) {
    case "event":
      return onEvent(state, action.event, action.now);
    case "print":
      return print(state, action.kind, action.text);
    case "compose":
      return {
        ...state,
        composer: action.text,
        cursor: Math.max(0, Math.min(action.text.length, action.cursor ?? action.text.length)),
      };
    case "enqueue":
      return { ...state, queue: [...state.queue, action.text] };
    case "dequeue":
      return { ...state, queue: state.queue.slice(1), held: state.queue.length > 1 && state.held };
    case "take_back":
      return { ...state, queue: state.queue.slice(0, -1), held: state.queue.length > 1 && state.held };
    case "menu":
      return { ...state, menu: action.menu };
    case "drop_queue":
      return { ...state, queue: [], held: false };
    case "hold":
      return { ...state, held: action.held };
    case "busy": {
      // Text still live when the work ends (no turn_end came) stays on screen.
      const next = action.busy ? state : commitLive(state);
      return {
        ...next,
        busy: action.busy,
        phase: action.phase !== undefined ? action.phase : action.busy ? state.phase : null,
        running: action.busy ? state.running : [],
        turn: action.busy ? state.turn : null,
      };
    }
    case "approval": {
      if (action.calls)
        return {
          ...state,
          approval: newApproval(action.calls, action.now ?? 0),
          phase: { kind: "approval" },
        };
      const next = { ...state, approval: null };
      if (state.phase?.kind !== "approval") return next;
      const first = state.running[0];
      return {
        ...next,
        phase: first
          ? { kind: "tool", name: first.name, since: action.now }
          : { kind: "thinking", since: action.now },
      };
    }
    case "approval_answer":
      return state.approval
        ? { ...state, approval: answer(state.approval, action.answer, action.all) }
        : state;
    case "approval_scroll":
      return state.approval ? { ...state, approval: action.approval } : state;
    case "limit":
      return { ...state, limit: action.prompt };
    case "session":
      return {
        ...state,
        status: {
          ...state.status,
          model: action.model,
          sessionId: action.sessionId,
          contextWindow: action.contextWindow,
          ...(action.thinking !== undefined ? { thinking: action.thinking } : {}),
          cost: action.priced === false ? null : state.status.cost,
        },
      };
    case "side_ask":
      return side(state, { open: true, pending: { question: action.question, text: "", reasoning: false } });
    case "side_event": {
      const pending = state.side.pending;
      if (!pending) return state;
      return side(state, {
        pending:
          action.kind === "text_delta"
            ? { ...pending, text: pending.text + action.text }
            : { ...pending, reasoning: true },
      });
    }
    case "side_done": {
      if (action.cost !== undefined)
        state = {
          ...state,
          status: { ...state.status, sideCost: addCost(state.status.sideCost, action.cost) },
        };
      const pending = state.side.pending;
      if (!pending) return state;
      // A failed question stays in the panel (R-SIDE-3) until it is closed.
      if (!action.ok)
        return side(state, { pending: { ...pending, error: action.error ?? "side question failed" } });
      const thread = [...state.side.thread, { question: pending.question, answer: action.text }];
      return side(state, { thread, index: thread.length - 1, pending: null });
    }
    case "side_close":
      return side(state, { open: false, pending: state.side.pending?.error ? null : state.side.pending });
    case "side_cancel":
      return side(state, { open: false, pending: null });
    case "side_step": {
      const max = state.side.thread.length - 1;
      return side(state, { index: Math.max(0, Math.min(max, state.side.index + action.delta)) });
    }
    case "side_clear":
      return side(state, { thread: [], index: 0, pending: null, open: false });
  }
}

/** Whole seconds left of a retry wait, counted down by the progress row (R-RETRY-3). */
export function secondsLeft(until: number, now: number): number {
  return Math.max(0, Math.ceil((until - now) / 1000));
}

/** `12s`, `3m 04s`. */
export function elapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s`;
}

/** An MCP progress notification in the progress row: `3/10 indexing` (R-UI-7). */
export function progressDetail(e: { progress: number; total?: number; message?: string }): string {
  const count = e.total !== undefined ? `${e.progress}/${e.total}` : `${e.progress}`;
  return e.message ? `${count} ${stripControlSequences(e.message)}`.slice(0, 80) : count;
}

export function phaseText(phase: Phase, now: number): string {
  const since = "since" in phase && phase.since !== undefined ? ` · ${elapsed(now - phase.since)}` : "";
  switch (phase.kind) {
    case "thinking":
      return "Thinking";
    case "tool":
      return `Running ${phase.name}${phase.detail ? ` ${phase.detail}` : ""}${since}`;
    case "approval":
      return "Waiting for approval";
    case "compacting":
      return `Compacting${since}`;
    case "retry":
      return `Retrying In ${secondsLeft(phase.until, now)}s (Attempt ${phase.attempt})${phase.message ? ` · ${phase.message}` : ""}`;
  }
}
