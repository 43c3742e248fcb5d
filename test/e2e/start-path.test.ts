// What a one-round headless run loads: the start-up budget lives in bench/, but which modules a
// run pays for is a fact a test can hold without a clock.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createBuiltinRegistry } from "../../src/tools/index.js";
import { offerEditTool } from "../../src/tools/edit-tool-offer.js";
import { offeredInMode } from "../../src/tools/policy/mode-offer.js";
import { openaiText } from "../support/openai-script.js";
import { useE2E } from "./tools-support.js";

const HOOK = resolve(import.meta.dirname, "../fixtures/loaded-modules-hook.cjs");

describe("the start path of tern run", () => {
  const e = useE2E();

  async function oneRound(): Promise<{ builtins: string[]; commonjs: string[] }> {
    e.provider.enqueue(openaiText("Done."));
    const out = join(e.dirs.root, "loaded.json");
    const r = await e.run(["run", "--model", "openai/mock-1", "--base-url", e.provider.baseUrl, "hi"], {
      OPENAI_API_KEY: "sk-test-key",
      NODE_OPTIONS: `--require ${HOOK}`,
      TERN_TEST_LOADED_FILE: out,
    });
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe("Done.");
    return JSON.parse(readFileSync(out, "utf8"));
  }

  it("over http loads neither TLS, crypto nor worker threads, and the ledger costs no package file (its addon is opened directly)", async () => {
    const loaded = await oneRound();
    expect(loaded.builtins).toContain("http");
    // node:crypto brings OpenSSL (~1.7 MB): the workspace key is hashed in JavaScript, images and
    // MCP names require crypto only when they need a hash.
    for (const name of ["https", "tls", "worker_threads", "crypto"])
      expect(loaded.builtins).not.toContain(name);
    // Nor what only tools, checkpoints, the sandbox probe and the line mode use: a run whose
    // model calls no tool spawns nothing and asks nothing.
    for (const name of ["child_process", "readline", "readline/promises", "fs/promises"])
      expect(loaded.builtins).not.toContain(name);
    // Nor Node's recursive remover, which rmSync loads even for one file (a round unlinks).
    expect(loaded.builtins).not.toContain("internal/fs/rimraf");
    // Nor Node's ES module loader (with its fs/promises and readline): the build is CommonJS, and
    // its files use their own `require` rather than node:module's createRequire.
    for (const name of [
      "module",
      "internal/modules/esm/translators",
      "internal/modules/esm/module_job",
      "internal/fs/promises",
    ])
      expect(loaded.builtins).not.toContain(name);
    // tern's own files: the entry, the command parser's stub, the shared chunk, esbuild's helpers.
    const dist = resolve(import.meta.dirname, "../../dist");
    const own = loaded.commonjs.filter((f) => f.startsWith(`${dist}/`));
    expect(own.length).toBeLessThanOrEqual(4);
    // better-sqlite3's JavaScript is bundled and its addon opened by path with process.dlopen:
    // no `bindings` search, and no module-loader resolve either (its path work is what tips V8
    // into optimising path.normalizeString, paging in ~3.5 MB of the optimising compiler).
    expect(loaded.commonjs.filter((f) => !own.includes(f))).toEqual([]);
    expect(existsSync(join(e.dirs.home, "ledger.db"))).toBe(true);
  });

  it("reads a config file of plain keys without the file parser and its schema; any other key loads them", async () => {
    const parserLoaded = (files: string[]) => files.some((f) => /[\\/]parse-layer-[^\\/]+\.js$/.test(f));
    writeFileSync(join(e.dirs.home, "config.json"), JSON.stringify({ retry: { baseDelaySeconds: 0.01 } }));
    expect(parserLoaded((await oneRound()).commonjs)).toBe(false);
    writeFileSync(join(e.dirs.home, "config.json"), JSON.stringify({ bashTimeoutSeconds: "unlimited" }));
    expect(parserLoaded((await oneRound()).commonjs)).toBe(true);
  });

  it("is one chunk: the command parser's static imports reach a single file of the build", () => {
    const dist = resolve(import.meta.dirname, "../../dist");
    // The build is CommonJS: a static import is a top-level require(); import() became
    // `Promise.resolve().then(() => helper(require(…)))`.
    const staticImports = (file: string) =>
      [...readFileSync(join(dist, file), "utf8").matchAll(/(then\(\(\)=>\w+\()?require\("\.\/([^"]+)"\)/g)]
        .filter((m) => m[1] === undefined)
        .map((m) => m[2]);
    const entry = readFileSync(join(dist, "tern.js"), "utf8").match(/require\("\.\/(program-[^"]+)"\)/)![1];
    const reached = new Set<string>();
    const visit = (file: string) => {
      for (const next of staticImports(file)) {
        if (reached.has(next)) continue;
        reached.add(next);
        visit(next);
      }
    };
    visit(entry);
    // The shared code, plus esbuild's CommonJS helpers (shared with packages loaded later).
    expect(reached.size).toBeLessThanOrEqual(2);
    const bytes = [...reached].reduce((sum, f) => sum + readFileSync(join(dist, f)).length, 0);
    expect(bytes).toBeGreaterThan(100_000);
    // Nor zod: config files' schema and tools' argument schemas load where they are used.
    for (const f of reached)
      expect(readFileSync(join(dist, f), "utf8")).not.toContain("__zod_globalRegistry");
  });

  it("sends the built-in tools' JSON schemas exactly as the sources derive them (the build computes them once)", async () => {
    await oneRound();
    const sent = e.provider.requests[0].body.tools.map((t: any) => [t.function.name, t.function.parameters]);
    // openai/mock-1 edits with edit_file: apply_patch is withheld as the session withholds it (R-EDIT-1).
    const registry = createBuiltinRegistry();
    offerEditTool(registry, "edit_file");
    // The default mode (ask) leaves out exit_plan, which only plan mode answers (R-PLAN-1).
    registry.offerOnly((tool) => offeredInMode("ask", tool));
    // recall waits for the session's first compaction (engine/compaction/recall-offer.ts).
    registry.offerWhen("recall", () => false);
    const derived = registry.definitions().map((d) => [d.name, d.parameters]);
    expect(sent).toEqual(derived);
  });
});
