// What can happen to the UI state: engine events (with the time they arrived, so the reducers
// stay pure) and the UI's own actions. Types only.
import type { EngineEvent } from "../engine/door/events.js";
import type { ApprovalAnswer, ApprovalCall, ApprovalState } from "./approval.js";
import type { Menu } from "./completion.js";
import type { ReplayAction } from "./replay.js";
import type { PickerState } from "./picker.js";
import type { ItemKind, LimitPrompt, Phase } from "./ui-state.js";

/** The side panel's actions (/btw), reduced by `side-reducer.ts`. */
export type SideAction =
  | { type: "side_ask"; question: string }
  | { type: "side_event"; kind: "reasoning_delta" | "text_delta"; text: string }
  | { type: "side_done"; ok: boolean; text: string; error?: string; cost?: number | null }
  | { type: "side_close" }
  | { type: "side_cancel" }
  | { type: "side_step"; delta: number }
  /** Scrolls the finished answer shown, within 0..max (how far the drawn panel can move). */
  | { type: "side_scroll"; delta: number; max: number }
  | { type: "side_clear" };

export type UiAction =
  | { type: "event"; event: EngineEvent; now: number }
  | { type: "print"; kind: ItemKind; text: string }
  /** Replaces the composer text; the cursor goes to `cursor`, else to the end. */
  | { type: "compose"; text: string; cursor?: number }
  | { type: "menu"; menu: Menu | null }
  /** The `statusLine` command's newest line (R-UI-23); `null`: the built-in status line again. */
  | { type: "status_line"; text: string | null }
  /** Ctrl+R's history search opens or closes (the composer then holds its query). */
  | { type: "searching"; on: boolean }
  /** A transient hint under the composer; `null` takes it away (R-UI-22). */
  | { type: "hint"; text: string | null }
  | { type: "busy"; busy: boolean; phase?: Phase | null }
  | { type: "approval"; calls: ApprovalCall[] | null; now?: number }
  /** Answers the prompt's current call (`all`: every call not answered yet). */
  | { type: "approval_answer"; answer: ApprovalAnswer; all?: boolean }
  | { type: "approval_scroll"; approval: ApprovalState }
  | { type: "limit"; prompt: LimitPrompt | null }
  /** The plan prompt of `exit_plan` (R-PLAN-1) opens or closes. */
  | { type: "plan_review"; open: boolean }
  /** An MCP server's form asks a question (R-MCP-3); `null` when it is answered. */
  | { type: "question"; text: string | null }
  /** The permission mode the status line shows (R-UI-24). */
  | { type: "mode"; mode: string }
  /** `priced: false`: the model has no known price, so the cost shows `$?` (R-UI-15). */
  | {
      type: "session";
      model: string;
      sessionId: string;
      contextWindow: number;
      thinking?: string;
      priced?: boolean;
      maxAttempts?: number;
    }
  /** A session was attached: its conversation so far and the status line's figures (R-UI-17). */
  | ReplayAction
  /** The session picker opens, changes (`PickerState`) or closes (`null`). */
  | { type: "picker"; picker: PickerState | null }
  /** The composer's vim mode changed (undefined: vim keys off, R-UI-30). */
  | { type: "vim"; mode: "normal" | "insert" | undefined }
  | SideAction;
