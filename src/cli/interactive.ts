// `tern` without a command: the Ink UI (src/tui) in a real terminal; the plain line mode
// (line-mode.ts) for `--plain` and for terminals that cannot draw it (TERM=dumb, stdout not a TTY).
import type { CommonOptions } from "./options.js";
import { holdTypeAhead } from "../tui/terminal-modes.js";
import { prepareSession, ternHome } from "./setup.js";

export async function interactiveCommand(opts: CommonOptions): Promise<number> {
  if (!process.stdin.isTTY) {
    process.stderr.write('tern: the interactive UI needs a terminal; use tern run "…" for scripts\n');
    return 2;
  }
  if (!opts.plain && process.stdout.isTTY && process.env.TERM !== "dumb") {
    // Before the UI's modules load: keys typed meanwhile must not echo above it.
    holdTypeAhead();
    const { runTui } = await import("../tui/run.js");
    // `tern --resume` without an id: the UI opens a picker first (R-UI-17), then resumes the pick.
    const pick = opts.resume === true && !opts.continue;
    const base = pick ? { ...opts, resume: undefined } : opts;
    return runTui({
      open: (hooks, resume) => prepareSession(resume ? { ...base, continue: false, resume } : base, hooks),
      pickFirst: pick,
      home: ternHome(),
      cwd: process.cwd(),
      baseUrl: opts.baseUrl,
    });
  }
  const { runLineMode } = await import("./line-mode.js");
  return runLineMode(opts);
}
