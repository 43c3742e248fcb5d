// Setup for tests whose fault a preload of the built CLI applies once a trigger file exists
// (disk-full-preload.cjs, clock-step-preload.cjs): a temp TERN_HOME and workspace with `a.txt`,
// a fake provider, the user config given, and the trigger's path (absent until the test makes it).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { FakeProvider } from "./fake-provider.js";
import { makeTempDirs, type TempDirs } from "./tern-home.js";

export interface TriggeredFault {
  dirs: TempDirs;
  provider: FakeProvider;
  /** Created by the test at the moment the fault begins; removed, it ends. */
  trigger: string;
}

export function useTriggeredFault(name: string, config: Record<string, unknown>): TriggeredFault {
  const ctx = {} as TriggeredFault;
  beforeEach(async () => {
    ctx.dirs = makeTempDirs();
    ctx.provider = await FakeProvider.start();
    ctx.trigger = join(ctx.dirs.root, name);
    writeFileSync(join(ctx.dirs.home, "config.json"), JSON.stringify(config));
    writeFileSync(join(ctx.dirs.workspace, "a.txt"), "hello\n");
  });
  afterEach(async () => {
    await ctx.provider.close();
    ctx.dirs.cleanup();
  });
  return ctx;
}
