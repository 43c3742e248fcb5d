// One side question over its ports: plan the messages (plan.ts), send one request, turn what
// came back into a result. Nothing here reads the session: `ports.ts` is where it meets one, and
// unit tests hand plain ports instead.
import type { RecordLine } from "../../record/types.js";
import type { Message } from "../../vocab/messages.js";
import { addUsage, emptyUsage, type Usage } from "../../vocab/usage.js";
import { archiveEntries, fitCopy, sideTail } from "./plan.js";
import type { SideEvent, SideExchange, SideResult } from "../door/side.js";

export const TOOL_CALL_ONLY = "the model answered with a tool call instead of text; ask again";

/** What a side question needs of a session, taken when it is asked (a model switch queued meanwhile changes none of it). */
export interface SidePorts {
  /** The committed record lines (the archive, not the compacted model context). */
  archive: readonly RecordLine[];
  system: string;
  /** The request limit, in estimated tokens. */
  limit: number;
  /**
   * One request of these messages with no tools (nothing is committed, published or billed);
   * `onAttemptUsage` gets every attempt's usage. Rejects on a provider error or cancellation.
   */
  send(
    messages: Message[],
    hooks: { signal: AbortSignal; onEvent(event: SideEvent): void; onAttemptUsage(usage: Usage): void },
  ): Promise<{ text: string; toolCalls: number }>;
  /** What this usage costs with the model asked (null = unknown price). */
  cost(usage: Usage): number | null;
  /** Whether an error is the provider's word for a cancelled request. */
  isCancel(err: unknown): boolean;
}

export interface SideOptions {
  history: SideExchange[];
  signal: AbortSignal;
  onEvent(event: SideEvent): void;
}

/** Never rejects: a front end awaits a result. */
export async function askThrough(ports: SidePorts, question: string, opts: SideOptions): Promise<SideResult> {
  if (opts.signal.aborted) return { ok: false, text: "", error: "cancelled", cost: 0 };
  let fitted: Message[] | string;
  try {
    fitted = fitCopy(
      archiveEntries(ports.archive),
      sideTail(opts.history, question),
      ports.system,
      ports.limit,
    );
  } catch (err) {
    fitted = `internal: ${err instanceof Error ? err.message : String(err)}`;
  }
  if (typeof fitted === "string") return { ok: false, text: "", error: fitted, cost: 0 };

  let usage: Usage | null = null;
  const cost = () => (usage ? ports.cost(usage) : 0);
  try {
    const result = await ports.send(fitted, {
      signal: opts.signal,
      onEvent: opts.onEvent,
      onAttemptUsage: (u) => {
        usage = addUsage(usage ?? emptyUsage(), u);
      },
    });
    // R-SIDE-3: tool calls are never executed; text that came with them is the answer.
    if (result.text.trim() === "") {
      if (result.toolCalls > 0) return { ok: false, text: "", error: TOOL_CALL_ONLY, cost: cost() };
      return { ok: false, text: "", error: "the model returned an empty answer; ask again", cost: cost() };
    }
    return { ok: true, text: result.text, cost: cost() };
  } catch (err) {
    if (opts.signal.aborted || ports.isCancel(err))
      return { ok: false, text: "", error: "cancelled", cost: cost() };
    return { ok: false, text: "", error: err instanceof Error ? err.message : String(err), cost: cost() };
  }
}
