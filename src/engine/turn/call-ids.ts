// Tool call ids as the next request needs them.
import type { ToolCall } from "../../vocab/messages.js";

/**
 * A model may send two calls with one id. Each call must get exactly one result and the next
 * request must name each call once (both wire protocols reject repeated ids), so a repeated or
 * empty id gets a suffix that makes it unique within the message.
 */
export function uniqueCallIds(calls: ToolCall[]): ToolCall[] {
  const seen = new Set<string>();
  let changed = false;
  const out = calls.map((call) => {
    let id = call.id || "call";
    for (let n = 2; seen.has(id); n++) id = `${call.id || "call"}_${n}`;
    seen.add(id);
    if (id === call.id) return call;
    changed = true;
    return { ...call, id };
  });
  return changed ? out : calls;
}
