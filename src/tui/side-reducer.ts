// How the /btw side panel's state changes (pure): a question opens the panel, its stream fills
// it, the answer joins the thread of this process (R-SIDE-1), a failure stays shown until it is
// closed (R-SIDE-3), and what side questions cost is counted apart from the session (R-SIDE-4).
import { addCost } from "../vocab/cost.js";
import type { SideAction } from "./ui-actions.js";
import type { SideState, UiState } from "./ui-state.js";

function side(state: UiState, patch: Partial<SideState>): UiState {
  return { ...state, side: { ...state.side, ...patch } };
}

export function reduceSide(state: UiState, action: SideAction): UiState {
  switch (action.type) {
    case "side_ask":
      return side(state, {
        open: true,
        scroll: 0,
        pending: { question: action.question, text: "", reasoning: false },
      });
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
      return side(state, { thread, index: thread.length - 1, scroll: 0, pending: null });
    }
    case "side_close":
      return side(state, { open: false, pending: state.side.pending?.error ? null : state.side.pending });
    case "side_cancel":
      return side(state, { open: false, pending: null });
    case "side_step": {
      const max = state.side.thread.length - 1;
      const index = Math.max(0, Math.min(max, state.side.index + action.delta));
      return index === state.side.index ? state : side(state, { index, scroll: 0 });
    }
    case "side_scroll": {
      const scroll = Math.max(0, Math.min(action.max, state.side.scroll + action.delta));
      return scroll === state.side.scroll ? state : side(state, { scroll });
    }
    case "side_clear":
      return side(state, { thread: [], index: 0, scroll: 0, pending: null, open: false });
  }
}
