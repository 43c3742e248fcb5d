// What a `statusLine` command is told that the UI state does not hold (R-UI-23, Claude Code's
// `cost` and `context_window` fields), added up from the session's own engine events:
// - tokens: every `usage` (the session's totals) and the newest one (`current_usage`);
// - API time: from a round's start to its answer (or failure), a retry's wait left out;
// - lines added / removed by this session's edit_file, edit_lineno and write_file calls that
//   succeeded: a write is compared with the file as it was when the call came (read then, in
//   the bus's synchronous publish, so before the call can run), an edit with its own old and
//   new text, once per occurrence replaced.
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { diffLines } from "diff";
import type { EngineEvent, UsageFields } from "../engine/door/events.js";
import { argumentsObject } from "../vocab/messages.js";

/** A file bigger than this is not read to count a write's removed lines: only its new lines count. */
const MAX_COMPARED = 2 * 1024 * 1024;

export interface LineCounts {
  added: number;
  removed: number;
}

/** Lines `after` adds to and removes from `before`, as a line diff counts them. */
export function changedLines(before: string, after: string): LineCounts {
  const out = { added: 0, removed: 0 };
  for (const part of diffLines(before, after)) {
    const n = part.count ?? 0;
    if (part.added) out.added += n;
    else if (part.removed) out.removed += n;
  }
  return out;
}

type Args = Record<string, unknown>;

/** A pending edit call: what its success will count (a write waits for the old file's text). */
type Pending = { name: string; args: Args; before?: string };

export class StatusLineTotals {
  input = 0;
  output = 0;
  apiMs = 0;
  readonly lines: LineCounts = { added: 0, removed: 0 };
  last: UsageFields | undefined;
  /** When the running request began (performance.now()); undefined between requests. */
  private requestSince: number | undefined;
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly cwd: string,
    private readonly now: () => number = () => performance.now(),
  ) {}

  reset(): void {
    this.input = 0;
    this.output = 0;
    this.apiMs = 0;
    this.lines.added = 0;
    this.lines.removed = 0;
    this.last = undefined;
    this.requestSince = undefined;
    this.pending.clear();
  }

  /** API time so far, the running request's share included. */
  apiDuration(): number {
    const running = this.requestSince === undefined ? 0 : Math.max(0, this.now() - this.requestSince);
    return Math.round(this.apiMs + running);
  }

  /** Adds what the event tells. */
  event(event: EngineEvent): void {
    switch (event.type) {
      case "usage":
        this.input += event.prompt;
        this.output += event.completion;
        this.last = { ...event };
        return;
      case "round_start":
        this.requestSince = this.now();
        return;
      case "retry_scheduled":
        // The wait before the next attempt is no API time: the clock restarts when it is over.
        this.stopClock();
        this.requestSince = this.now() + event.delay_ms;
        return;
      case "assistant_message":
      case "error":
      case "turn_end":
        this.stopClock();
        return;
      case "tool_call":
        this.called(event.id, event.name, event.arguments);
        return;
      case "tool_result":
        this.finished(event.id, event.outcome, event.content);
        return;
      default:
        return;
    }
  }

  private stopClock(): void {
    if (this.requestSince !== undefined) this.apiMs += Math.max(0, this.now() - this.requestSince);
    this.requestSince = undefined;
  }

  private called(id: string, name: string, json: string): void {
    if (name !== "edit_file" && name !== "edit_lineno" && name !== "write_file") return;
    const args: Args = argumentsObject(json) ?? {};
    const pending: Pending = { name, args };
    if (name === "write_file" && typeof args.path === "string") pending.before = this.readOld(args.path);
    this.pending.set(id, pending);
  }

  private readOld(path: string): string | undefined {
    const file = isAbsolute(path) ? path : join(this.cwd, path);
    try {
      return statSync(file).size > MAX_COMPARED ? undefined : readFileSync(file, "utf8");
    } catch {
      return undefined; // a new file: every line is added
    }
  }

  private finished(id: string, outcome: string, content: string): void {
    const call = this.pending.get(id);
    if (!call) return;
    this.pending.delete(id);
    if (outcome !== "ok") return;
    const counts = countOf(call, content);
    this.lines.added += counts.added;
    this.lines.removed += counts.removed;
  }
}

function countOf(call: Pending, result: string): LineCounts {
  const { args } = call;
  if (call.name === "edit_lineno") {
    // Its result says it exactly: `replaced 3 line(s) at 7 with 5`.
    const m = /replaced (\d+) line\(s\) at \d+ with (\d+)/.exec(result);
    return m ? { added: Number(m[2]), removed: Number(m[1]) } : { added: 0, removed: 0 };
  }
  if (call.name === "edit_file") {
    if (typeof args.old_string !== "string" || typeof args.new_string !== "string")
      return { added: 0, removed: 0 };
    const times = Number(/replaced (\d+) occurrence/.exec(result)?.[1] ?? 1);
    const one = changedLines(withNewline(args.old_string), withNewline(args.new_string));
    return { added: one.added * times, removed: one.removed * times };
  }
  if (typeof args.content !== "string") return { added: 0, removed: 0 };
  const before = call.before ?? "";
  return changedLines(before, args.content);
}

/** An edit's texts compared as whole lines, so `a` → `b` is one line changed, not none. */
function withNewline(text: string): string {
  return text === "" || text.endsWith("\n") ? text : `${text}\n`;
}
