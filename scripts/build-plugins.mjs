// The esbuild plugins of scripts/build.mjs: what they change in the bundle, and why.
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve as resolvePath } from "node:path";

// Start-up cost is dominated by V8 compiling the source on the start path (~30 ms per MB on a
// slow core), so bytes there matter. zod re-exports ~50 message locales as `z.locales`, a third
// of its size; tern never switches locale (zod imports its default `en` directly), so the
// locale index resolves to an empty module.
// Ink imports react-devtools-core statically but uses it only when DEV=true; it is not installed.
export const noReactDevtools = {
  name: "no-react-devtools",
  setup(b) {
    b.onResolve({ filter: /^react-devtools-core$/ }, () => ({
      path: "react-devtools-core",
      namespace: "empty",
    }));
    b.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "export default {};", loader: "js" }));
  },
};
export const dropZodLocales = {
  name: "drop-zod-locales",
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
      contents: "export {};",
      loader: "js",
    }));
  },
};

// commander requires node:child_process at load, for executable subcommands tern never declares;
// that module (with net, dgram and their bindings) costs every start ~2 ms and ~250 KB. It is
// required where commander would spawn, instead.
export const lazyCommanderSpawn = {
  name: "lazy-commander-spawn",
  setup(b) {
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      const eager = "const childProcess = require('node:child_process');";
      if (!source.includes(eager))
        throw new Error(`${args.path}: commander changed; update lazyCommanderSpawn`);
      const lazy = "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };";
      return { contents: source.replace(eager, lazy), loader: "js" };
    });
  },
};

// esbuild puts each module in a chunk per set of entry points (the CLI entry and every import()
// target) that reach it, so the start path of a headless run loaded one file per distinct set:
// 14 files for ~370 KB, each found, resolved (realpath, path work that soon gets hot enough for
// V8 to spend an optimizing compile and ~2 MB on) and linked. Every module loaded lazily after
// the command line is parsed also re-exports the start path's root (program.ts), so all that
// root reaches has one set and lands in one chunk. Free at run time: those modules only ever
// load after program.ts. Nothing else changes: each one's own code stays in its own chunk.
const START_ROOT = resolvePath("src/cli/program.ts");
const LOADED_AFTER_START = [
  "src/acp/main.ts",
  "src/cli/archive-commands.ts",
  "src/cli/checkpoint-commands.ts",
  "src/cli/config-check.ts",
  "src/cli/hooks-command.ts",
  "src/commands/slash.ts",
  "src/engine/hook-points/session-hooks.ts",
  "src/engine/jobs/session-jobs.ts",
  "src/cli/interactive.ts",
  "src/config/file/parse-layer.ts",
  "src/checkpoint/shadow-repo.ts",
  "src/engine/compaction/compaction.ts",
  "src/engine/side/ports.ts",
  "src/engine/undo/undo.ts",
  "src/engine/subagents/isolation.ts",
  "src/cli/worktree-session.ts",
  "src/cli/worktree-commands.ts",
  "src/cli/mcp-commands.ts",
  "src/tools/mcp/auth/index.ts",
  "src/tools/mcp/mcp-resources.ts",
  "src/lsp/session-servers.ts",
  "src/provider/anthropic-messages.ts",
  "src/provider/bedrock.ts",
  "src/provider/gemini.ts",
  "src/provider/openai-responses.ts",
  "src/cli/models-command.ts",
  "src/tools/policy/judge/approval-judge.ts",
  "src/tools/builtin/all.ts",
  "src/tools/mcp/mcp.ts",
  "src/telemetry/otel.ts",
  "src/tui/commands.ts",
  "src/tui/run.tsx",
].map((f) => {
  if (!existsSync(f)) throw new Error(`build.mjs: ${f} is gone; update LOADED_AFTER_START`);
  return resolvePath(f);
});
export const startPathAnchor = {
  name: "start-path-anchor",
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.tsx?$/ }, (args) => {
      if (!LOADED_AFTER_START.includes(args.path)) return undefined;
      const source = readFileSync(args.path, "utf8");
      return {
        contents: `${source}\nexport { runProgram as __startPathAnchor } from ${JSON.stringify(START_ROOT)};\n`,
        loader: args.path.endsWith(".tsx") ? "tsx" : "ts",
      };
    });
  },
};

// tern's own schemas use zod/mini, so only the checks they name are bundled. The MCP and ACP SDKs
// use zod's full API, and zod/mini shares its core modules with it: bundled together, every core
// function either SDK uses would sit in a chunk the start path loads. So tern's zod/mini imports
// get a private copy of zod (its own namespace: same files, separate modules) that tree-shakes to
// what tern uses; the SDKs keep theirs in the chunks only they load.
export const privateZodMini = {
  name: "private-zod-mini",
  setup(b) {
    const ns = "tern-zod";
    b.onResolve({ filter: /^zod\/(mini|v4\/locales\/en\.js)$/ }, async (args) => {
      if (args.namespace === ns || !/[\\/]src[\\/]/.test(args.importer)) return undefined;
      const r = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir });
      return { path: r.path, namespace: ns, sideEffects: false };
    });
    b.onResolve({ filter: /.*/, namespace: ns }, async (args) => {
      const r = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir });
      return { path: r.path, namespace: ns, sideEffects: false };
    });
    b.onLoad({ filter: /.*/, namespace: ns }, (args) => ({
      contents: readFileSync(args.path, "utf8"),
      resolveDir: dirname(args.path),
      loader: "js",
    }));
  },
};

// tern's own modules take `createRequire` from node:module only to require packages and Node's
// modules from the built file. The CLI's files become CommonJS (commonjs-chunks.mjs), where every
// file has `require` already, resolving from the same folder: loading node:module for it would
// also load part of Node's ES module loader (~0.1 MB). The library's ES module build keeps it.
export const nativeRequire = {
  name: "native-require",
  setup(b) {
    b.onResolve({ filter: /^node:module$/ }, (args) =>
      /[\\/]src[\\/]/.test(args.importer)
        ? { path: "node:module", namespace: "tern-native-require" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "tern-native-require" }, () => ({
      contents: "export function createRequire() { return require; }",
      loader: "js",
    }));
  },
};

/** An import made by Ink's own modules (the replacements below are for Ink alone). */
const fromInk = (args) => /[\\/]ink[\\/]build$/.test(args.resolveDir);

// Ink's measureText caches the size of every text it lays out in a Map never cleared (a long
// streaming session kept every frame): src/tui/ink-measure-text.ts, the same sizes with the
// cache bounded, is bundled in its place.
export const inkMeasureText = {
  name: "ink-measure-text",
  setup(b) {
    b.onResolve({ filter: /^\.\/measure-text\.js$/ }, (args) =>
      fromInk(args) ? { path: resolvePath("src/tui/ink-measure-text.ts") } : undefined,
    );
  },
};

// The UI's own frame writer (src/tui/frame-writer.ts: changed lines only, a resize-aware erase;
// 8 B per streamed character) and Output with its shortcut for rows written whole
// (src/tui/ink-output.ts) take the places of Ink's `log-update.js` and `output.js`. Ink 6.8 has no
// option for either, and its package exports only its entry, so tern owns both modules and the
// build resolves Ink's own imports of them to tern's: no file of tern reaches Ink's build by path.
const INK_OWNED = {
  "./log-update.js": resolvePath("src/tui/ink-log-update.ts"),
  "./output.js": resolvePath("src/tui/ink-output.ts"),
};
export const inkOwnedModules = {
  name: "ink-owned-modules",
  setup(b) {
    b.onResolve({ filter: /^\.\/(log-update|output)\.js$/ }, (args) =>
      fromInk(args) ? { path: INK_OWNED[args.path] } : undefined,
    );
  },
};

// Ink draws only its last frame, at exit, when CI or CONTINUOUS_INTEGRATION is set (is-in-ci):
// a log-friendly mode for programs that print into a CI job's log. tern starts Ink only on a
// terminal (cli/interactive.ts), so a shell that happens to export CI=true (containers, CI
// runners a person attaches to) would show a UI that never draws. Ink is told it is never in CI.
export const inkNeverInCi = {
  name: "ink-never-in-ci",
  setup(b) {
    b.onResolve({ filter: /^is-in-ci$/ }, (args) =>
      fromInk(args) ? { path: "is-in-ci", namespace: "tern-never-in-ci" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "tern-never-in-ci" }, () => ({
      contents: "export default false;",
      loader: "js",
    }));
  },
};

// string-width segments any non-ASCII text into grapheme clusters and runs Unicode-property
// regexes on each: the UI's rows (`·`, `│`, braille spinner, colours) always took that path, and
// it was the largest cost of a streamed frame. Ink, wrap-ansi, widest-line and cli-truncate get
// src/tui/fast-width.ts in its place: the same answers (it hands string-width everything but
// text of simple one-column characters and CSI sequences, which it counts in one pass).
const FAST_WIDTH = resolvePath("src/tui/fast-width.ts");
export const fastStringWidth = {
  name: "fast-string-width",
  setup(b) {
    b.onResolve({ filter: /^string-width$/ }, (args) =>
      args.importer === FAST_WIDTH || !/[\\/]node_modules[\\/]/.test(args.importer)
        ? undefined
        : { path: FAST_WIDTH },
    );
  },
};

// The model catalogue's data (src/config/catalogue-data.json, ~100 kB) is on every run's start
// path: as the object literal esbuild makes of a JSON import it cost several ms to compile at
// start; as one string given to JSON.parse it costs well under one.
export const catalogueAsJsonText = {
  name: "catalogue-as-json-text",
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]config[\\/]catalogue-data\.json$/ }, (args) => ({
      contents: `export default JSON.parse(${JSON.stringify(JSON.stringify(JSON.parse(readFileSync(args.path, "utf8"))))});`,
      loader: "js",
    }));
  },
};
