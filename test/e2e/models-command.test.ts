// `tern models [provider]` through the built CLI (R-PROV-16): the catalogue with its source's
// date, one provider's models, and a config.json entry winning over the catalogue's.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());
const run = (args: string[]) => runCli(args, { home: dirs.home, cwd: dirs.workspace });

describe("tern models", () => {
  it("lists one provider's models with the catalogue's source and date", async () => {
    const out = await run(["models", "google"]);
    expect(out.code).toBe(0);
    const [head, columns, ...rows] = out.stdout.trim().split("\n");
    expect(head).toMatch(/^catalogue: models\.dev .* of \d{4}-\d{2}-\d{2};/);
    expect(columns).toMatch(/^model\s+window\s+output\s+input\s+output\s+cache read\s+cache write\s+notes$/);
    expect(rows.every((row) => row.startsWith("google/"))).toBe(true);
    expect(rows.find((row) => row.startsWith("google/gemini-2.5-pro "))).toMatch(
      /google\/gemini-2\.5-pro\s+1048576\s+65536\s+\$1\.25\s+\$10\s+\$0\.125\s+-\s+reasoning,images >200k: \$2\.5\/\$15/,
    );
  });

  it("shows a config.json entry over the catalogue's, marked as config", async () => {
    writeFileSync(
      join(dirs.home, "config.json"),
      JSON.stringify({
        models: { "google/gemini-2.5-pro": { contextWindow: 100000, pricing: { input: 2, output: 3 } } },
      }),
    );
    const out = await run(["models", "google"]);
    expect(out.stdout).toMatch(/google\/gemini-2\.5-pro\s+100k\s+65536\s+\$2\s+\$3\s+.*config/);
  });

  it("says so for a provider with no models", async () => {
    const out = await run(["models", "nosuch"]);
    expect(out.code).toBe(1);
    expect(out.stdout).toContain('no model of provider "nosuch"');
  });
});
