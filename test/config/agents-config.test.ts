// The `agents` key (R-AGENT-1): its defaults (4 children at once, 100 model calls each), a user's
// values, a bad value as a one-line error naming the key, and an untrusted workspace that may only
// lower them.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

const writeUser = (c: unknown) => writeFileSync(join(dirs.home, "config.json"), JSON.stringify(c));
const writeWs = (c: unknown) => {
  mkdirSync(join(dirs.workspace, ".tern"), { recursive: true });
  writeFileSync(join(dirs.workspace, ".tern", "config.json"), JSON.stringify(c));
};
const load = () => loadConfig({ home: dirs.home, cwd: dirs.workspace, flags: {}, env: {} });

describe("agents config", () => {
  it("defaults to 4 children at once and 100 model calls per child; a user may change both", () => {
    expect(load().config.agents).toEqual({
      maxParallel: 4,
      executionBudget: { maximumModelCalls: 100, maximumToolCalls: 8192, maximumDurationSeconds: 604800 },
    });
    writeUser({
      agents: { maxParallel: 8, executionBudget: { maximumModelCalls: 500, maximumDurationSeconds: null } },
    });
    expect(load().config.agents).toEqual({
      maxParallel: 8,
      executionBudget: { maximumModelCalls: 500, maximumToolCalls: 8192, maximumDurationSeconds: null },
    });
  });

  it("a bad value is one line naming the key", () => {
    writeUser({ agents: { maxParallel: 0 } });
    expect(() => load()).toThrow(/agents\.maxParallel/);
    writeUser({ agents: { parallel: 2 } });
    expect(() => load()).toThrow(/agents/);
  });

  it("an untrusted workspace may lower them, never raise them", () => {
    writeWs({
      agents: { maxParallel: 16, executionBudget: { maximumModelCalls: 1000, maximumToolCalls: 10 } },
    });
    const { config, warnings } = load();
    expect(config.agents.maxParallel).toBe(4);
    expect(config.agents.executionBudget).toMatchObject({ maximumModelCalls: 100, maximumToolCalls: 10 });
    expect(warnings.some((w) => w.includes("agents.maxParallel ignored"))).toBe(true);
    expect(warnings.some((w) => w.includes("agents.executionBudget.maximumModelCalls ignored"))).toBe(true);
  });
});
