// Starts the Ink UI: opens the session through the cli's opener, renders, waits for /quit or a
// double Ctrl+C, then unmounts and closes the session.
import { render } from "ink";
import { App } from "./app.js";
import { TuiController, type TuiDeps } from "./controller.js";
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
  try {
    ctl.attach(await deps.open(ctl.hooks));
  } catch (err) {
    process.off("exit", inputModesOff);
    inputModesOff();
    releaseTypeAhead();
    throw err;
  }
  giveBackTypeAhead();
  // Ctrl+C is a key here (R-UI-5), not a signal that kills the process.
  const ink = render(<App ctl={ctl} />, { exitOnCtrlC: false, patchConsole: false });
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
    ink.unmount();
    await ink.waitUntilExit();
  } finally {
    process.off("exit", inputModesOff);
    inputModesOff();
  }
  await ctl.session.close();
  process.off("SIGTERM", onTerm);
  process.off("SIGHUP", onHup);
  return signalled ?? 0;
}
