// Starts the Ink UI: opens the session through the cli's opener, renders, waits for /quit or a
// double Ctrl+C, then unmounts and closes the session.
import { render } from "ink";
import { App, RENDER_MS } from "./app.js";
import { TuiController } from "./controller.js";
import type { TuiDeps } from "./controller-types.js";
import { argumentSourcesOf } from "./argument-sources.js";
import { applyTheme } from "./ansi.js";
import { resumeAtStart } from "./session-picker-app.js";
import {
  giveBackTypeAhead,
  holdTypeAhead,
  inputModesOff,
  inputModesOn,
  releaseTypeAhead,
} from "./terminal-modes.js";

export async function runTui(deps: TuiDeps): Promise<number> {
  holdTypeAhead();
  inputModesOn();
  // Input modes go off on any exit, an uncaught error included ('exit' still fires then).
  process.once("exit", inputModesOff);
  const ctl = new TuiController(deps);
  ctl.composer.argumentSources = argumentSourcesOf(ctl, deps);
  try {
    const picked = deps.pickFirst ? await resumeAtStart(deps.home, deps.cwd) : {};
    if (picked === null) {
      process.off("exit", inputModesOff);
      inputModesOff();
      releaseTypeAhead();
      return 0;
    }
    await ctl.attach(await deps.open(ctl.hooks, picked.id));
    if (picked.none) ctl.print("info", "no earlier session in this workspace to resume: this one is new");
  } catch (err) {
    process.off("exit", inputModesOff);
    inputModesOff();
    releaseTypeAhead();
    throw err;
  }
  giveBackTypeAhead();
  // R-UI-30: the configured theme and vim keys, before the first frame.
  applyTheme(ctl.config.ui?.theme ?? "dark");
  if (ctl.config.ui?.vim) ctl.composer.vim.set(true);
  // Ctrl+C is a key here (R-UI-5), not a signal that kills the process.
  // Frames go through frame-writer.ts (changed lines only, resize-aware erase), not Ink's own
  // writer; not Ink's incrementalRendering either: in Ink 6.8 it moves the cursor one row short
  // when the frame ends in a newline (every frame below a scrollback does).
  const ink = render(<App ctl={ctl} />, { stdout: inkStdout(), exitOnCtrlC: false, patchConsole: false });
  // SIGTERM and SIGHUP (a closed terminal) cancel the running turn and leave, like /quit (R-REC-4).
  let signalled: number | undefined;
  const onTerm = () => {
    signalled ??= 143;
    void ctl.quit();
  };
  const onHup = () => {
    signalled ??= 129;
    void ctl.quit();
  };
  process.on("SIGTERM", onTerm);
  process.on("SIGHUP", onHup);
  try {
    await ctl.exited;
    // Let the last frame (and the cancelled turn's end) reach the screen before leaving.
    // The timer is cleared (not just raced): a pending one would keep the process alive for 2 s.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([ctl.settled(), new Promise((r) => (timer = setTimeout(r, 2000)))]);
    clearTimeout(timer);
    // A render the throttle still holds (the cancelled turn's last lines) is drawn before Ink
    // unmounts, which would drop it.
    await new Promise((r) => setTimeout(r, RENDER_MS + 5));
    ink.unmount();
    await ink.waitUntilExit();
  } finally {
    process.off("exit", inputModesOff);
    inputModesOff();
  }
  // R-UI-16: how to come back to this session.
  if (process.stdout.isTTY)
    process.stdout.write(`Resume this session with: tern --resume ${ctl.session.id}\n`);
  await ctl.session.close();
  process.off("SIGTERM", onTerm);
  process.off("SIGHUP", onHup);
  return signalled ?? 0;
}

/** A height Ink's frame never reaches (the live region is capped at the real rows − 1). */
const NEVER_ROWS = 100_000;

/**
 * process.stdout as Ink sees it. Ink clears the screen and the scrollback (ESC[2J ESC[3J) and
 * rewrites the whole transcript whenever its last frame was as tall as the terminal, which
 * happens right after the window gets shorter. The live region is fitted to the real height
 * (live-view.ts reads process.stdout.rows); Ink is told a height it never reaches, so it never
 * clears (R-UI-13).
 */
function inkStdout(): NodeJS.WriteStream {
  return new Proxy(process.stdout, {
    get(target, prop) {
      if (prop === "rows") return NEVER_ROWS;
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
