// The plain line mode (`tern --plain`, and terminals that cannot draw the UI): the same session
// door as the TUI. A prompt line starts a turn and the answer streams; a line typed while the
// turn runs is a follow-up in the engine's queue (R-UI-1, R-TURN-7); an empty line sends a
// queue that Ctrl+C held (R-UI-2, R-UI-5). Approvals and limits are asked by line-requests.ts,
// slash commands run from the shared table (line-commands.ts).
import type { Interface } from "node:readline/promises";
import { buildPromptContent, InputError } from "../commands/prompt-input.js";
import { findCommand, parseCommandLine, timingOf } from "../commands/table.js";
import type { EngineEvent } from "../engine/door/events.js";
import type { Session } from "../engine/session.js";
import { stripControlSequences } from "../workspace/terminal-text.js";
import { addCost, money } from "../vocab/cost.js";
import { runLineCommand } from "./line-commands.js";
import { lineRequests } from "./line-requests.js";
import { lineElicit } from "./line-elicit.js";
import { linePlanReview } from "./plan-prompt.js";
import type { CommonOptions } from "./options.js";
import { describeProgress } from "./progress.js";
import { prepareSession, ternHome } from "./setup.js";
import { SideThread } from "./side-thread.js";

/** What the line mode prints for an engine event: the stream on stdout, progress on stderr. */
class LinePrinter {
  private streaming = false;
  /** USD so far (turns and compactions); null once one had an unknown price. */
  cost: number | null = 0;

  print(event: EngineEvent): void {
    if (event.type === "text_delta") {
      this.streaming = true;
      process.stdout.write(stripControlSequences(event.text));
      return;
    }
    if (this.streaming && event.type !== "reasoning_delta") {
      process.stdout.write("\n");
      this.streaming = false;
    }
    if (event.type === "stream_discarded") process.stdout.write("\n[discarded a failed attempt's output]\n");
    if (event.type === "compaction" && event.cost !== undefined) this.cost = addCost(this.cost, event.cost);
    if (event.type === "turn_end") {
      this.cost = addCost(this.cost, event.cost);
      process.stdout.write(
        `— turn ${event.turn} · ${event.stop_reason} · rounds=${event.tool_rounds} · tools=${event.tool_calls} · cost ${money(event.cost)}\n`,
      );
      return;
    }
    if (event.type === "follow_up") {
      this.followUp(event);
      return;
    }
    const line = describeProgress(event);
    if (line !== undefined) process.stderr.write(`${line}\n`);
  }

  private followUp(event: Extract<EngineEvent, { type: "follow_up" }>): void {
    const text = stripControlSequences(event.follow_up?.text ?? "").replace(/\n/g, " ⏎ ");
    if (event.change === "joined" || event.change === "started") process.stdout.write(`› ${text}\n`);
    else if (event.change === "queued")
      process.stderr.write(`queued: ${text} (joins after the current tool batch)\n`);
    else if (event.change === "dropped") process.stderr.write(`dropped queued: ${text}\n`);
    else if (event.change === "held")
      process.stderr.write(`queue held after Ctrl+C (${event.queued.length}): an empty line sends it\n`);
  }
}

export async function runLineMode(opts: CommonOptions): Promise<number> {
  let rl: Interface | undefined;
  // A question of the engine's takes the next line as its answer (readline emits no `line` for it).
  const ask = async (question: string) => (await rl!.question(question)).trim().toLowerCase();
  const prepared = await prepareSession(opts, {
    ...lineRequests(ask),
    reviewPlan: linePlanReview((question) => rl!.question(question)),
    elicit: lineElicit((question) => rl!.question(question)),
  });
  const { session, model } = prepared;
  // Loaded here: this module sits in the chunk every headless command loads, and readline is
  // only the line mode's.
  const { createInterface } = await import("node:readline/promises");
  rl = createInterface({ input: process.stdin, output: process.stdout });
  for (const warning of prepared.warnings) process.stderr.write(`notice: ${warning}\n`);
  process.stdout.write(
    `tern · ${model.id} · session ${session.id}${prepared.resumed ? " (resumed)" : ""} · /help\n`,
  );
  const printer = new LinePrinter();
  session.subscribe((event) => printer.print(event));

  let busy = false;
  let lastCtrlC = Number.NEGATIVE_INFINITY;
  const side = new SideThread(session);
  const context = {
    session,
    config: prepared.config,
    home: ternHome(),
    baseUrl: opts.baseUrl,
    cost: () => printer.cost,
    side,
    print: (out: string) => process.stdout.write(out.endsWith("\n") ? out : `${out}\n`),
    busy: runBusy,
  };
  rl.on("SIGINT", () => {
    if (side.cancel()) return;
    if (busy) {
      // R-UI-5: interrupts and keeps queued text, held until an empty line.
      session.cancel({ queue: "hold" });
      return;
    }
    const now = performance.now();
    if (rl!.line === "" && now - lastCtrlC < 2000) rl!.close();
    lastCtrlC = now;
    rl!.write(null, { ctrl: true, name: "u" });
  });
  // A line while no question is open (a turn runs, or a command between prompts): the engine's queue.
  rl.on("line", (line) => {
    const typed = () => whileBusy(session, line.trim(), context);
    void (busy ? typed() : runBusy(typed));
  });
  const closed = new Promise<void>((resolve) => rl!.once("close", () => resolve()));
  // SIGTERM / SIGHUP cancel the running turn and end the session (R-REC-4).
  let signalled: number | undefined;
  const onSignal = (code: number) => () => {
    signalled ??= code;
    session.cancel({ queue: "drop" });
    rl!.close();
  };
  const onTerm = onSignal(143);
  const onHup = onSignal(129);
  process.on("SIGTERM", onTerm);
  process.on("SIGHUP", onHup);

  try {
    for (;;) {
      if (signalled !== undefined) break;
      const line = await Promise.race([rl.question("› "), closed.then(() => undefined)]);
      if (line === undefined) break;
      const text = line.trim();
      if (!text) {
        // R-UI-2: an empty line sends a held queue now.
        if (session.followUps().queued.length > 0) await runBusy(async () => session.sendFollowUpsNow());
        continue;
      }
      if (/^\/[A-Za-z]/.test(text)) {
        if (!(await runLineCommand(text, context))) break;
        continue;
      }
      const content = contentOf(session, text);
      if (content) await runBusy(() => session.send({ type: "prompt", content }));
    }
  } finally {
    rl.close();
    await session.close();
    process.off("SIGTERM", onTerm);
    process.off("SIGHUP", onHup);
  }
  return signalled ?? 0;

  /** A turn-starting command: busy (Ctrl+C interrupts, lines queue) until the session is idle. */
  async function runBusy<T>(fn: () => Promise<T>): Promise<T> {
    busy = true;
    try {
      return await fn();
    } finally {
      await session.idle();
      busy = false;
    }
  }
}

/** The prompt's content parts (`@` files attached); a bad input is one line on stderr. */
function contentOf(session: Session, text: string) {
  try {
    return buildPromptContent(text, process.cwd(), [], session.status().model.endpoint.api);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    process.stderr.write(`${err.message}\n`);
    return undefined;
  }
}

/** A line typed while a turn runs: a follow-up, or a command that may run at once (R-UI-4). */
async function whileBusy(
  session: Session,
  text: string,
  context: Parameters<typeof runLineCommand>[1],
): Promise<void> {
  if (!text) {
    if (session.followUps().queued.length > 0) session.sendFollowUpsNow();
    return;
  }
  if (/^\/[A-Za-z]/.test(text)) {
    const { name, args } = parseCommandLine(text);
    const command = findCommand(name);
    if (command && timingOf(command, args) === "now") await runLineCommand(text, context);
    else process.stderr.write(`${name} waits for an idle prompt: press Ctrl+C to interrupt the turn first\n`);
    return;
  }
  const content = contentOf(session, text);
  // Sent while busy, a prompt joins the engine's follow-up queue (R-TURN-7).
  if (content) void session.send({ type: "prompt", content, text }).catch(() => undefined);
}
