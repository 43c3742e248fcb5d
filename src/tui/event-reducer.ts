// How engine events change the UI state (pure). Finished things become transcript items once;
// the live stream is committed piece by piece as pieces complete (R-UI-13, stream-cuts.ts), an interrupted
// answer stays on screen marked as such (R-UI-12), tool calls are kept structured for their
// readable lines (R-UI-11), and the phase says what is really happening (R-UI-15).
import type { EngineEvent } from "../engine/door/events.js";
import { stripControlSequences } from "../workspace/terminal-text.js";
import { addCost } from "../vocab/cost.js";
import { foldChild, parentCall } from "./child-fold.js";
import { streamCut } from "./stream-cuts.js";
import { liveTail } from "./output-view.js";
import { errorLine, progressDetail, turnLabel } from "./status-text.js";
import type { ToolRun } from "./tool-view.js";
import { hostedToolLine, print } from "./transcript-items.js";
import type { Phase, UiState } from "./ui-state.js";

/** What the phase is once no prompt is up: a running tool, else waiting for the model. */
function settledPhase(state: UiState, now: number): Phase {
  const next = state.running.find((r) => r.outcome === undefined);
  return next ? { kind: "tool", name: next.name, since: now } : { kind: "thinking", since: now };
}

/** Finished calls at the head of the batch go to the transcript, in call order; `all`: every finished one. */
function commitFinished(state: UiState, all = false): UiState {
  let next = state;
  const waiting: ToolRun[] = [];
  for (const run of state.running) {
    if (run.outcome !== undefined && (waiting.length === 0 || all))
      next = print(next, "tool", `${run.name} ${run.outcome}`, { tool: run });
    else waiting.push(run);
  }
  return { ...next, running: waiting };
}

/** Commits the part of the live stream that is complete markdown blocks (stream-cuts.ts). */
function flushBlocks(state: UiState): UiState {
  const rest = state.live.slice(state.flushed);
  const { cut, joined, numbered } = streamCut(rest);
  if (cut === 0) return state;
  const block = rest.slice(0, cut).replace(/\s+$/, "");
  // A numbered list numbers on from its first item (or from the piece before's, which it continues).
  const continued = numbered?.fromStart ? state.joinNext?.number : undefined;
  const number = numbered && (continued ?? numbered.start) + numbered.items;
  const joinNext = joined ? { number } : undefined;
  const next = { ...state, flushed: state.flushed + cut, joinNext };
  return block ? printPiece(next, block, state.joinNext) : next;
}

/** A piece of the answer; one that continues the list above it gets no blank row, and its number. */
function printPiece(state: UiState, text: string, join: UiState["joinNext"]): UiState {
  if (!join) return print(state, "assistant", text);
  const numbered = join.number === undefined ? text : text.replace(/^\d{1,9}(?=[.)])/, String(join.number));
  return print(state, "assistant", numbered, { joined: true });
}

/** The live text not yet committed, committed now (an interrupted or abandoned stream). */
export function commitLive(state: UiState): UiState {
  const rest = state.live.slice(state.flushed).replace(/\s+$/, "");
  const next = { ...state, live: "", flushed: 0, joinNext: undefined };
  return rest.trim() ? printPiece(next, rest, state.joinNext) : next;
}

export function onEvent(state: UiState, event: EngineEvent, now: number): UiState {
  // A sub-agent's event only folds under its task call; its turns and text are not the parent's.
  const under = parentCall(event);
  if (under !== undefined) return { ...state, running: foldChild(state.running, under, event) };
  switch (event.type) {
    case "turn_start":
      return {
        ...state,
        running: [],
        phase: { kind: "thinking", since: now },
        turn: { start: now, tokens: 0, roundChars: 0 },
      };
    case "round_start":
      return {
        ...state,
        phase: { kind: "thinking", since: now },
        turn: state.turn && { ...state.turn, roundStart: now, attempt: 1 },
      };
    case "reasoning_delta": {
      const counted = state.turn
        ? { ...state, turn: { ...state.turn, roundChars: state.turn.roundChars + event.text.length } }
        : state;
      // Once the answer streams, the reasoning is collapsed: late reasoning stays hidden too.
      return state.live === ""
        ? { ...counted, liveReasoning: state.liveReasoning + stripControlSequences(event.text) }
        : counted;
    }
    case "text_delta": {
      const next = {
        ...state,
        live: state.live + stripControlSequences(event.text),
        liveReasoning: "",
        phase: state.phase?.kind === "retry" ? ({ kind: "thinking", since: now } as Phase) : state.phase,
        turn: state.turn && { ...state.turn, roundChars: state.turn.roundChars + event.text.length },
      };
      // Only a new line can complete a block.
      return event.text.includes("\n") ? flushBlocks(next) : next;
    }
    case "stream_discarded": {
      const next = { ...state, live: "", liveReasoning: "", flushed: 0, joinNext: undefined };
      // Blocks already in the scrollback cannot be taken back: say the answer restarts.
      return state.flushed > 0
        ? print(next, "info", "(the answer above was cut off; the model is answering again)")
        : next;
    }
    case "assistant_message": {
      const shown = state.live.slice(0, state.flushed);
      // Compared with the live text, which was stripped the same way as it streamed.
      const text = stripControlSequences(event.text);
      const rest = (text.startsWith(shown) ? text.slice(state.flushed) : text).replace(/\s+$/, "");
      const next = {
        ...state,
        live: "",
        liveReasoning: "",
        flushed: 0,
        joinNext: undefined,
      };
      if (rest.trim()) return printPiece(next, rest.replace(/^\n+/, ""), state.joinNext);
      // An answer of nothing (or only whitespace) says so rather than showing nothing (R-UI-22).
      return !text.trim() && event.tool_calls.length === 0 ? print(next, "info", "(empty answer)") : next;
    }
    case "retry_scheduled":
      // The countdown lives in the progress row; each retry also leaves one line (R-UI-20).
      return print(
        {
          ...state,
          phase: {
            kind: "retry",
            attempt: event.attempt,
            of: state.status.maxAttempts,
            until: now + event.delay_ms,
            message: event.message,
          },
          turn: state.turn && { ...state.turn, attempt: event.attempt },
        },
        "retry",
        `retrying model request: ${event.message}`,
      );
    case "tool_call": {
      const running = [
        ...state.running,
        {
          id: event.id,
          name: event.name,
          arguments: event.arguments,
          presentation: event.presentation,
          started: now,
        },
      ];
      const phase: Phase = state.approval
        ? (state.phase as Phase)
        : { kind: "tool", name: running[0].name, since: now };
      return { ...state, running, phase };
    }
    case "hosted_tool":
      return event.status === "done" ? print(state, "tool", hostedToolLine(event)) : state;
    case "approval":
      // An approved call starts to run now: its time waiting for the person is not its duration.
      return {
        ...state,
        running: state.running.map((r) =>
          r.id === event.id && event.decision === "approved" ? { ...r, started: now } : r,
        ),
      };
    case "tool_progress": {
      const since = state.phase?.kind === "tool" ? state.phase.since : now;
      return { ...state, phase: { kind: "tool", name: event.name, since, detail: progressDetail(event) } };
    }
    case "tool_output":
      // The live tail of a running call (R-UI-18): the engine already sends it at most ~10 times a second.
      return {
        ...state,
        running: state.running.map((r) =>
          r.id === event.id && r.outcome === undefined
            ? { ...r, live: { tail: liveTail(event.tail), lines: event.lines } }
            : r,
        ),
      };
    case "tool_result": {
      const known = state.running.find((r) => r.id === event.id);
      const call: ToolRun = known ?? {
        id: event.id,
        name: event.name,
        arguments: "{}",
        presentation: { title: "", kind: "other", locations: [] },
      };
      const run: ToolRun = {
        ...call,
        outcome: event.outcome,
        content: event.content,
        // A denied call never ran: it has no duration.
        ...(call.started !== undefined && event.outcome !== "denied" ? { ms: now - call.started } : {}),
      };
      // R-UI-19: results are drawn in the batch's call order (the order the approval listed):
      // a call that finished before an earlier one waits in the live region until that one is done.
      const running = known ? state.running.map((r) => (r.id === event.id ? run : r)) : state.running;
      const next = known
        ? commitFinished({ ...state, running })
        : print(state, "tool", `${event.name} ${event.outcome}`, { tool: run });
      return { ...next, phase: state.approval ? state.phase : settledPhase(next, now) };
    }
    case "usage":
      return {
        ...state,
        turn: state.turn && { ...state.turn, tokens: state.turn.tokens + event.completion, roundChars: 0 },
        status: {
          ...state.status,
          lastPrompt: event.prompt,
          tokens: state.status.tokens + event.prompt + event.completion,
        },
      };
    case "compaction": {
      // A /compact summary is billed like a turn (the ledger has a row for it).
      const billed =
        event.cost === undefined
          ? state
          : { ...state, status: { ...state.status, cost: addCost(state.status.cost, event.cost) } };
      // Outside a turn it is `/compact`, whose command says `compacted` once for all its stages.
      return state.turn === null
        ? billed
        : print(
            billed,
            "info",
            `compacted (${event.stage}): ${event.before_tokens} → ${event.after_tokens} tokens`,
          );
    }
    case "notice":
      return print(state, "info", `notice: ${event.text}`);
    case "lsp_diagnostics":
      return {
        ...state,
        status: { ...state.status, lspErrors: { ...state.status.lspErrors, [event.path]: event.errors } },
      };
    case "job_start":
      return { ...state, status: { ...state.status, jobs: (state.status.jobs ?? 0) + 1 } };
    case "job_end":
      // R-JOB-2: a finished job's exit is one transcript line.
      return print(
        { ...state, status: { ...state.status, jobs: Math.max(0, (state.status.jobs ?? 0) - 1) } },
        "info",
        `${event.id} exited ${event.status}${event.reason === "exited" ? "" : ` (${event.reason.replace("_", " ")})`}: ${event.command}`,
      );
    case "error":
      return print(
        state,
        "error",
        errorLine(
          event,
          state.turn?.attempt ?? 1,
          Math.round((now - (state.turn?.roundStart ?? state.turn?.start ?? now)) / 1000),
        ),
      );
    case "follow_up": {
      // The engine owns the queue (R-TURN-7); the panel draws what it published.
      const next = { ...state, queue: event.queued.map((q) => q.text), held: event.held };
      const sent = event.change === "joined" || event.change === "started";
      return sent && event.follow_up ? print(next, "user", `› ${event.follow_up.text}`) : next;
    }
    case "limit_reached":
      return print(state, "info", `limit reached: ${event.limit} (${event.used}/${event.allowed})`);
    case "turn_end": {
      const cost = state.status.cost === null || event.cost === null ? null : state.status.cost + event.cost;
      const label = turnLabel({
        turn: event.turn,
        stopReason: event.stop_reason,
        toolRounds: event.tool_rounds,
        toolCalls: event.tool_calls,
        toolErrors: event.tool_errors,
        durationMs: event.duration_ms,
        cost: event.cost,
      });
      let next = commitLive(commitFinished(state, true));
      // R-UI-12: what was on screen stays, marked; it never entered the model context.
      if (event.stop_reason === "cancelled")
        next = print(
          next,
          "interrupted",
          state.live.trim()
            ? "⏹ interrupted · the partial answer above is not part of the conversation"
            : "⏹ interrupted",
        );
      return print(
        { ...next, phase: null, running: [], turn: null, status: { ...next.status, cost } },
        "turn",
        label,
      );
    }
    default:
      return state;
  }
}
