// /btw (R-SIDE-1..5): one side question with its own cancellation; the answer goes to the side
// panel only (never the transcript, the queue or the record).
import type { UiControl } from "./controller-types.js";

export async function askSideQuestion(ctl: UiControl, question: string): Promise<void> {
  const controller = new AbortController();
  ctl.setSideAbort(controller);
  ctl.store.dispatch({ type: "side_ask", question });
  try {
    const result = await ctl.session.askSide(question, {
      // The newest 20 exchanges of this process (R-SIDE-1).
      history: ctl.state.side.thread.slice(-20),
      signal: controller.signal,
      onEvent: (event) => {
        if (!controller.signal.aborted)
          ctl.store.dispatch({ type: "side_event", kind: event.type, text: event.text });
      },
    });
    if (controller.signal.aborted) {
      // Cancelled: nothing to show, but what it spent still counts on the status line.
      if (result.cost !== 0)
        ctl.store.dispatch({ type: "side_done", ok: false, text: "", cost: result.cost });
      return;
    }
    ctl.store.dispatch({
      type: "side_done",
      ok: result.ok,
      text: result.text,
      error: result.error,
      cost: result.cost,
    });
  } catch (err) {
    if (!controller.signal.aborted)
      ctl.store.dispatch({
        type: "side_done",
        ok: false,
        text: "",
        error: err instanceof Error ? err.message : String(err),
      });
  } finally {
    ctl.setSideAbort(undefined);
  }
}
