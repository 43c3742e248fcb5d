// A running call's output as it comes (R-UI-18), for front ends to show its tail: per call the
// last bytes and the number of lines so far, published as `tool_output` at most every
// INTERVAL_MS (a flood of output costs at most ~10 events a second per call), and stopped once
// the call's result is in. Not part of `--json` (R-CLI-3 lists its event types).
import type { EngineEvent } from "../door/events.js";

export const INTERVAL_MS = 100;
/** How much of the end of the output an event carries: enough for a few wrapped lines. */
export const TAIL_CHARS = 2048;

interface CallOutput {
  name: string;
  tail: string;
  lines: number;
  /** The last character seen ended a line (a partial last line counts as one more). */
  ended: boolean;
  timer?: NodeJS.Timeout;
  lastSent: number;
}

export class ToolOutputStream {
  private readonly calls = new Map<string, CallOutput>();

  constructor(private readonly publish: (event: Extract<EngineEvent, { type: "tool_output" }>) => void) {}

  push(id: string, name: string, text: string): void {
    if (!text) return;
    let call = this.calls.get(id);
    if (!call) {
      call = { name, tail: "", lines: 0, ended: true, lastSent: 0 };
      this.calls.set(id, call);
    }
    for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) call.lines++;
    call.ended = text.endsWith("\n");
    call.tail = (call.tail + text).slice(-TAIL_CHARS);
    if (call.timer) return;
    const wait = Math.max(0, call.lastSent + INTERVAL_MS - Date.now());
    const target = call;
    target.timer = setTimeout(() => this.send(id, target), wait);
    target.timer.unref();
  }

  /** The call's result is in: nothing more of its output is sent. */
  end(id: string): void {
    const call = this.calls.get(id);
    if (call?.timer) clearTimeout(call.timer);
    this.calls.delete(id);
  }

  /** The batch is over. */
  close(): void {
    for (const id of [...this.calls.keys()]) this.end(id);
  }

  private send(id: string, call: CallOutput): void {
    call.timer = undefined;
    call.lastSent = Date.now();
    if (this.calls.get(id) !== call) return;
    this.publish({
      type: "tool_output",
      id,
      name: call.name,
      tail: call.tail,
      lines: call.lines + (call.ended ? 0 : 1),
    });
  }
}
