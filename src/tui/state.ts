// The UI state and its pure reducer: engine events and UI actions in, state out. Components
// only draw this state; time comes in with the actions (`now`) so the reducer stays pure.
import { addCost, money } from "../config/pricing.js";
import type { EngineEvent, ToolCallFields } from "../engine/events.js";
import { stripControlSequences } from "../engine/terminal-text.js";
import type { Menu } from "./completion.js";

/** A call waiting for approval, with why it asks and what `always` would cover. */
export type ApprovalFields = ToolCallFields & { reason?: string; always?: string };

export type ItemKind = "user" | "assistant" | "tool" | "info" | "error" | "turn" | "retry";

/** A committed transcript line: written once to the scrollback, never redrawn. */
export interface Item {
  id: number;
  kind: ItemKind;
  text: string;
}

export type Phase =
  | { kind: "thinking" }
  | { kind: "tool"; name: string; detail?: string }
  | { kind: "approval" }
  | { kind: "compacting" }
  | { kind: "retry"; attempt: number; until: number };

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
  live: string;
  /** Reasoning of the running round, shown dimmed until its answer starts (then collapsed). */
  liveReasoning: string;
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
  approval: ApprovalFields[] | null;
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
  | { type: "approval"; calls: ApprovalFields[] | null }
  | { type: "limit"; prompt: LimitPrompt | null }
  | { type: "session"; model: string; sessionId: string; contextWindow: number; thinking?: string }
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

function print(state: UiState, kind: ItemKind, text: string): UiState {
  // Tool output and model text must not drive the terminal (SPEC §10).
  const item = { id: state.nextId, kind, text: stripControlSequences(text) };
  return { ...state, items: [...state.items, item], nextId: state.nextId + 1 };
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

export function hostedToolLine(event: { name: string; detail: string }): string {
  const detail = stripControlSequences(event.detail);
  return `⌕ ${event.name} (run by the provider)${detail ? ` ${JSON.stringify(detail)}` : ""}`;
}

function onEvent(state: UiState, event: EngineEvent, now: number): UiState {
  switch (event.type) {
    case "turn_start":
      return { ...state, toolRounds: 0, phase: { kind: "thinking" } };
    case "round_start":
      return { ...state, phase: { kind: "thinking" } };
    case "reasoning_delta":
      // Once the answer streams, the reasoning is collapsed: late reasoning stays hidden too.
      return state.live === ""
        ? { ...state, liveReasoning: state.liveReasoning + stripControlSequences(event.text) }
        : state;
    case "text_delta":
      return {
        ...state,
        liveReasoning: "",
        live: state.live + stripControlSequences(event.text),
        phase: state.phase?.kind === "retry" ? { kind: "thinking" } : state.phase,
      };
    case "stream_discarded":
      return { ...state, live: "", liveReasoning: "" };
    case "assistant_message": {
      const next = {
        ...state,
        live: "",
        liveReasoning: "",
        toolRounds: state.toolRounds + (event.tool_calls.length > 0 ? 1 : 0),
      };
      return event.text.trim() ? print(next, "assistant", event.text.replace(/\s+$/, "")) : next;
    }
    case "retry_scheduled":
      return print(
        { ...state, phase: { kind: "retry", attempt: event.attempt, until: now + event.delay_ms } },
        "retry",
        `retrying model request: ${event.message}`,
      );
    case "tool_call":
      return print(
        { ...state, phase: { kind: "tool", name: event.name } },
        "tool",
        `→ ${event.name} ${clip(event.arguments, 200)}`,
      );
    case "hosted_tool":
      return event.status === "done" ? print(state, "tool", hostedToolLine(event)) : state;
    case "approval":
      return event.decision === "denied" ? print(state, "tool", `  denied ${event.id}`) : state;
    case "tool_progress":
      return { ...state, phase: { kind: "tool", name: event.name, detail: progressDetail(event) } };
    case "tool_result": {
      const next = { ...state, phase: { kind: "thinking" } as Phase };
      if (event.outcome === "ok") return next;
      return print(
        next,
        "tool",
        `  ${event.name} ${event.outcome}: ${clip(event.content.split("\n")[0], 200)}`,
      );
    }
    case "usage":
      return {
        ...state,
        status: {
          ...state.status,
          lastPrompt: event.prompt,
          tokens: state.status.tokens + event.prompt + event.completion,
        },
      };
    case "compaction":
      return print(
        event.cost === undefined
          ? state
          : { ...state, status: { ...state.status, cost: addCost(state.status.cost, event.cost) } },
        "info",
        `compacted (${event.stage}): ${event.before_tokens} → ${event.after_tokens} tokens`,
      );
    case "notice":
      return print(state, "info", `notice: ${event.text}`);
    case "error":
      return print(
        state,
        "error",
        `error: ${event.class}${event.status !== undefined ? ` (HTTP ${event.status})` : ""}: ${event.message}`,
      );
    case "limit_reached":
      return print(state, "info", `limit reached: ${event.limit} (${event.used}/${event.allowed})`);
    case "turn_end": {
      const cost = state.status.cost === null || event.cost === null ? null : state.status.cost + event.cost;
      const label =
        `— turn ${event.turn} · ${event.stop_reason} · rounds=${state.toolRounds} · ` +
        `tools=${event.tool_calls} · errors=${event.tool_errors} · ${(event.duration_ms / 1000).toFixed(1)}s · ${money(event.cost)}`;
      return print({ ...state, live: "", phase: null, status: { ...state.status, cost } }, "turn", label);
    }
    default:
      return state;
  }
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
    case "busy":
      return {
        ...state,
        busy: action.busy,
        phase: action.phase !== undefined ? action.phase : action.busy ? state.phase : null,
        live: action.busy ? state.live : "",
      };
    case "approval":
      return {
        ...state,
        approval: action.calls,
        phase: action.calls
          ? { kind: "approval" }
          : state.phase?.kind === "approval"
            ? { kind: "thinking" }
            : state.phase,
      };
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
/** An MCP progress notification in the progress row: `3/10 indexing` (R-UI-7). */
function progressDetail(e: { progress: number; total?: number; message?: string }): string {
  const count = e.total !== undefined ? `${e.progress}/${e.total}` : `${e.progress}`;
  return e.message ? `${count} ${e.message}`.slice(0, 80) : count;
}

export function secondsLeft(until: number, now: number): number {
  return Math.max(0, Math.ceil((until - now) / 1000));
}

export function phaseText(phase: Phase, now: number): string {
  switch (phase.kind) {
    case "thinking":
      return "Thinking";
    case "tool":
      return phase.detail ? `Running ${phase.name}… ${phase.detail}` : `Running ${phase.name}…`;
    case "approval":
      return "Waiting for approval";
    case "compacting":
      return "Compacting";
    case "retry":
      return `Retrying In ${secondsLeft(phase.until, now)}s (Attempt ${phase.attempt})`;
  }
}
