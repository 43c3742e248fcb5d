// `tern` without a command: the Ink UI (src/tui) in a real terminal; the plain line mode below
// for `--plain` and for terminals that cannot draw it (TERM=dumb, stdout not a TTY). The line
// mode runs the same engine as `tern run`, streams the answer, asks for approval per batch
// (y / n / a) and for budget limits (y / n / yyy); its slash commands live in line-commands.ts.
import type { Interface } from "node:readline/promises";
import type { EngineEvent } from "../engine/events.js";
import { buildPromptContent, InputError } from "../commands/prompt-input.js";
import type { CommonOptions } from "./options.js";
import { stripControlSequences } from "../engine/terminal-text.js";
import { describeProgress } from "./progress.js";
import { holdTypeAhead } from "../tui/terminal-modes.js";
import { runLineCommand } from "./line-commands.js";
import { linePlanReview } from "./plan-prompt.js";
import { SideThread } from "./side-thread.js";
import { prepareSession, ternHome } from "./setup.js";
import { addCost, money } from "../vocab/cost.js";

export async function interactiveCommand(opts: CommonOptions): Promise<number> {
  if (!process.stdin.isTTY) {
    process.stderr.write('tern: the interactive UI needs a terminal; use tern run "…" for scripts\n');
    return 2;
  }
  if (!opts.plain && process.stdout.isTTY && process.env.TERM !== "dumb") {
    // Before the UI's modules load: keys typed meanwhile must not echo above it.
    holdTypeAhead();
    const { runTui } = await import("../tui/run.js");
    return runTui({
      open: (hooks, resume) => prepareSession(resume ? { ...opts, continue: false, resume } : opts, hooks),
      home: ternHome(),
      cwd: process.cwd(),
      baseUrl: opts.baseUrl,
    });
  }
  let rl: Interface | undefined;
  const ask = async (question: string) => (await rl!.question(question)).trim().toLowerCase();
  const prepared = await prepareSession(opts, {
    approve: async (calls) => {
      const decisions = new Map<string, "approved" | "denied" | "always">();
      process.stdout.write("\nThe model wants to run:\n");
      for (const call of calls) {
        process.stdout.write(`  ${call.name} ${stripControlSequences(call.arguments)}
`);
        if (call.reason)
          process.stdout.write(`    (${stripControlSequences(call.reason)})
`);
        if (call.always)
          process.stdout.write(`    [a]lways covers: ${stripControlSequences(call.always)}
`);
      }
      const answer = await ask("Allow? [y]es / [n]o / [a]lways: ");
      const decision = answer.startsWith("a") ? "always" : answer.startsWith("y") ? "approved" : "denied";
      for (const call of calls) decisions.set(call.id, decision);
      return decisions;
    },
    onLimit: async (limit, used, allowed) => {
      const answer = await ask(
        `Limit reached (${limit} ${used}/${allowed}): continue? [y]es / [n]o / [yyy] for the rest of this turn: `,
      );
      return answer === "yyy" ? "all" : answer.startsWith("y") ? "yes" : "no";
    },
    offersOutsideSandbox: true,
    reviewPlan: linePlanReview((question) => rl!.question(question)),
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

  let streaming = false;
  let totalCost: number | null = 0;
  session.subscribe((event: EngineEvent) => {
    if (event.type === "text_delta") {
      streaming = true;
      process.stdout.write(stripControlSequences(event.text));
      return;
    }
    if (streaming && event.type !== "reasoning_delta") {
      process.stdout.write("\n");
      streaming = false;
    }
    if (event.type === "stream_discarded") process.stdout.write("\n[discarded a failed attempt's output]\n");
    if (event.type === "compaction" && event.cost !== undefined) totalCost = addCost(totalCost, event.cost);
    if (event.type === "turn_end") {
      totalCost = addCost(totalCost, event.cost);
      process.stdout.write(
        `— turn ${event.turn} · ${event.stop_reason} · rounds=${event.tool_rounds} · tools=${event.tool_calls} · cost ${money(event.cost)}\n`,
      );
      return;
    }
    const line = describeProgress(event);
    if (line !== undefined) process.stderr.write(`${line}\n`);
  });

  let busy = false;
  let lastCtrlC = Number.NEGATIVE_INFINITY;
  const side = new SideThread(session);
  rl.on("SIGINT", () => {
    if (side.cancel()) return;
    if (busy) {
      session.cancel();
      return;
    }
    const now = performance.now();
    if (rl!.line === "" && now - lastCtrlC < 2000) rl!.close();
    lastCtrlC = now;
    rl!.write(null, { ctrl: true, name: "u" });
  });
  const closed = new Promise<void>((resolve) => rl!.once("close", () => resolve()));
  // SIGTERM / SIGHUP cancel the running turn and end the session (R-REC-4).
  let signalled: number | undefined;
  const onSignal = (code: number) => () => {
    signalled ??= code;
    session.cancel();
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
      if (!text) continue;
      if (/^\/[A-Za-z]/.test(text)) {
        const goOn = await runLineCommand(text, {
          session,
          config: prepared.config,
          home: ternHome(),
          baseUrl: opts.baseUrl,
          cost: () => totalCost,
          side,
          print: (out) => process.stdout.write(out.endsWith("\n") ? out : `${out}\n`),
          busy: runBusy,
        });
        if (!goOn) break;
        continue;
      }
      try {
        const content = buildPromptContent(text, process.cwd(), [], session.status().model.endpoint.api);
        await runBusy(() => session.send({ type: "prompt", content }));
      } catch (err) {
        if (err instanceof InputError) process.stderr.write(`${err.message}\n`);
        else throw err;
      }
    }
  } finally {
    rl.close();
    await session.close();
    process.off("SIGTERM", onTerm);
    process.off("SIGHUP", onHup);
  }
  return signalled ?? 0;

  async function runBusy<T>(fn: () => Promise<T>): Promise<T> {
    busy = true;
    try {
      return await fn();
    } finally {
      busy = false;
    }
  }
}
