// Starts the Ink UI: opens the session through the cli's opener, renders, waits for /quit or a
// double Ctrl+C, then unmounts and closes the session.
import { render } from "ink";
import { App } from "./app.js";
import { TuiController, type TuiDeps } from "./controller.js";
import { PASTE_OFF, PASTE_ON } from "./raw-input.js";

/** Turns bracketed paste off on any exit, an uncaught error included ('exit' still fires then). */
function pasteOff(): void {
  if (process.stdout.isTTY) process.stdout.write(PASTE_OFF);
}

export async function runTui(deps: TuiDeps): Promise<number> {
  const ctl = new TuiController(deps);
  ctl.attach(await deps.open(ctl.hooks));
  // Ctrl+C is a key here (R-UI-5), not a signal that kills the process.
  const ink = render(<App ctl={ctl} />, { exitOnCtrlC: false, patchConsole: false });
  process.stdout.write(PASTE_ON);
  process.once("exit", pasteOff);
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
    process.off("exit", pasteOff);
    pasteOff();
  }
  await ctl.session.close();
  process.off("SIGTERM", onTerm);
  process.off("SIGHUP", onHup);
  return signalled ?? 0;
}
