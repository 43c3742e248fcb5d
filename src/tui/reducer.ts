// The UI state's pure reducer: UI actions in, state out. Components only draw the state; time
// comes in with the actions (`now`) so the reducer stays pure. Engine events are reduced by
// `event-reducer.ts`, the side panel's actions by `side-reducer.ts`.
import { answer, newApproval } from "./approval.js";
import { commitLive, onEvent } from "./event-reducer.js";
import { print } from "./transcript-items.js";
import { reduceSide } from "./side-reducer.js";
import type { UiAction } from "./ui-actions.js";
import type { UiState } from "./ui-state.js";

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
    case "menu":
      return { ...state, menu: action.menu };
    case "searching":
      return { ...state, searching: action.on };
    case "status_line": {
      if (action.text === state.statusLine) return state;
      const { statusLine: _gone, ...rest } = state;
      return action.text === null ? rest : { ...state, statusLine: action.text };
    }
    case "hint": {
      const { hint: _gone, ...rest } = state;
      return action.text === null ? rest : { ...state, hint: action.text };
    }
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
    case "plan_review":
      return { ...state, planReview: action.open };
    case "question":
      return { ...state, question: action.text ?? undefined };
    case "mode":
      return { ...state, status: { ...state.status, mode: action.mode } };
    case "session": {
      // Another session's figures start from nothing (its replay brings the recorded ones); a
      // model switch in the same session keeps them.
      const other = action.sessionId !== state.status.sessionId;
      return {
        ...state,
        status: {
          ...state.status,
          model: action.model,
          sessionId: action.sessionId,
          contextWindow: action.contextWindow,
          ...(action.thinking !== undefined ? { thinking: action.thinking } : {}),
          ...(action.maxAttempts !== undefined ? { maxAttempts: action.maxAttempts } : {}),
          lastPrompt: other ? 0 : state.status.lastPrompt,
          tokens: other ? 0 : state.status.tokens,
          cost: action.priced === false ? null : other ? 0 : state.status.cost,
        },
      };
    }
    case "picker":
      return { ...state, picker: action.picker };
    case "vim":
      return { ...state, vim: action.mode };
    case "replay": {
      let next = state;
      for (const item of action.items) next = print(next, item.kind, item.text, { tool: item.tool });
      return {
        ...next,
        status: {
          ...next.status,
          lastPrompt: action.lastPrompt,
          tokens: action.tokens,
          cost: next.status.cost === null ? null : action.cost,
        },
      };
    }
    default:
      return reduceSide(state, action);
  }
}
