// A sub-agent's work folded under its `task` call (R-AGENT-1): the child's (and grandchildren's)
// tool calls, as the engine publishes them with `parent_call` to a listener that asks for
// children, become short lines under that call: the newest few while it runs, one summary line
// once it is done, all of them with Ctrl+O. Nothing else of a child (its text, its turns) is drawn.
import type { EngineEvent } from "../engine/door/events.js";
import type { CallPresenter } from "../engine/session.js";
import type { ChildRecord } from "../workspace/session-queries.js";
import { stripControlSequences } from "../workspace/terminal-text.js";
import { count, sanitize, style, truncate } from "./ansi.js";

/** One tool call of a child, as its line shows it. */
export interface ChildCall {
  /** The child's session and call id: ids repeat across sessions. */
  key: string;
  name: string;
  title: string;
  outcome?: string;
}

/** What a `task` call holds of its children's work. */
export interface ChildWork {
  agent?: string;
  calls: ChildCall[];
}

/** Child lines shown under a running task call before the older ones become "+N earlier". */
export const FOLD_ROWS = 5;

/** Where an event came from, when a sub-agent published it (engine/subagents/task-runner.ts). */
export function parentCall(event: EngineEvent): string | undefined {
  return (event as { parent_call?: string }).parent_call;
}

/** A call as the fold reads it (tool-view.ts's ToolRun, which imports this module). */
interface FoldedRun {
  id: string;
  outcome?: string;
  content?: string;
  subagent?: ChildWork;
}

/** The only events of a child that show: its calls and their results (its text streams unseen). */
function folds(event: EngineEvent): event is Extract<EngineEvent, { type: "tool_call" | "tool_result" }> {
  return event.type === "tool_call" || event.type === "tool_result";
}

/** A child's event: its tool calls and results change the work shown under its task call. */
export function foldChild<R extends FoldedRun>(running: R[], callId: string, event: EngineEvent): R[] {
  if (!folds(event)) return running;
  const from = event as EngineEvent & { session?: string; agent?: string };
  const key = `${from.session ?? ""}/${event.id}`;
  return running.map((run) => {
    if (run.id !== callId || run.outcome !== undefined) return run;
    const work: ChildWork = run.subagent ?? { calls: [] };
    const calls =
      event.type === "tool_call"
        ? [
            ...work.calls,
            {
              key,
              name: stripControlSequences(event.name),
              title: stripControlSequences(event.presentation.title.split("\n")[0] ?? ""),
            },
          ]
        : work.calls.map((c) => (c.key === key ? { ...c, outcome: event.outcome } : c));
    return { ...run, subagent: { agent: work.agent ?? from.agent, calls } };
  });
}

/** A replayed task call's work (R-UI-17), from the child's own record: as the live fold had it. */
export function childWorkOf(record: ChildRecord, present: CallPresenter): ChildWork {
  return {
    agent: record.agent,
    calls: record.calls.map((c) => ({
      key: `${c.session}/${c.id}`,
      name: stripControlSequences(c.name),
      title: stripControlSequences(
        present({ name: c.name, arguments: c.arguments }).title.split("\n")[0] ?? "",
      ),
      ...(c.outcome !== undefined ? { outcome: c.outcome } : {}),
    })),
  };
}

/** `✓ read_file  a.txt`, indented under its task call. */
function childLine(call: ChildCall, cols: number): string {
  const mark =
    call.outcome === undefined
      ? style.yellow("○")
      : call.outcome === "ok"
        ? style.green("✓")
        : style.red("✗");
  return truncate(`    ${mark} ${call.name}  ${style.gray(sanitize(call.title))}`, cols);
}

/** Under a running task call: its children's newest calls, the older ones counted. */
export function foldRows(work: ChildWork | undefined, cols: number): string[] {
  if (!work || work.calls.length === 0) return [];
  const shown = work.calls.slice(-FOLD_ROWS);
  const earlier = work.calls.length - shown.length;
  return [
    ...(earlier > 0 ? [style.gray(`    +${earlier} earlier`)] : []),
    ...shown.map((c) => childLine(c, cols)),
  ];
}

/** Under a finished task call: `explore · 7 tool calls · 12.0s`. */
export function foldSummary(work: ChildWork | undefined, took: string | undefined, cols: number): string[] {
  if (!work) return [];
  const parts = [work.agent ?? "sub-agent", count(work.calls.length, "tool call"), ...(took ? [took] : [])];
  return [style.gray(truncate(`    ${parts.join(" · ")}`, cols))];
}

/**
 * Children's events reach only a listener that asks for them (engine/bus.ts); this one passes
 * on just those, so the controller's own listener keeps seeing the parent's events alone.
 */
export function foldChildren(
  session: { subscribe(listener: (event: EngineEvent) => void, opts: { children: boolean }): () => void },
  store: { dispatch(action: { type: "event"; event: EngineEvent; now: number }): void },
): () => void {
  return session.subscribe(
    (event) => {
      // A child's text deltas are most of its events: they are not even dispatched.
      if (parentCall(event) !== undefined && folds(event))
        store.dispatch({ type: "event", event, now: performance.now() });
    },
    { children: true },
  );
}

/** Ctrl+O: the newest finished call's whole output (a task's with its children's calls), if any. */
export function lastToolOutput(items: readonly { tool?: FoldedRun }[]): string | undefined {
  const tool = [...items].reverse().find((i) => i.tool?.content !== undefined)?.tool;
  return tool && wholeOutput(tool);
}

/** A call's whole view: a task's every child call, then its output. */
function wholeOutput(tool: FoldedRun): string {
  const content = tool.content ?? "";
  const work = tool.subagent;
  if (!work || work.calls.length === 0) return content;
  const mark = (c: ChildCall) => (c.outcome === undefined ? "○" : c.outcome === "ok" ? "✓" : "✗");
  const calls = work.calls.map((c) => `${mark(c)} ${c.name}  ${c.title}`);
  return [`${work.agent ?? "sub-agent"}: ${count(calls.length, "tool call")}`, ...calls, "", content].join(
    "\n",
  );
}
