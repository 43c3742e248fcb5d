// A line-mode context over a live test session: what `tern --plain` hands its slash commands,
// printing into an array the test reads.
import { defaultConfig } from "../../src/config/defaults.js";
import type { LineContext } from "../../src/cli/line-commands.js";
import { SideThread } from "../../src/cli/side-thread.js";
import type { Session } from "../../src/engine/session.js";
import type { Harness } from "../engine/harness.js";

export function lineHost(h: Harness, session: Session): { ctx: LineContext; printed: string[] } {
  const printed: string[] = [];
  const ctx: LineContext = {
    session,
    config: { ...defaultConfig(), model: "local/mock-1" },
    home: h.dirs.home,
    baseUrl: h.provider.baseUrl,
    cost: () => null,
    side: new SideThread(session),
    print: (text: string) => printed.push(text),
    busy: <T>(fn: () => Promise<T>) => fn(),
  };
  return { ctx, printed };
}
