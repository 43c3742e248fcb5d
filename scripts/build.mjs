// Bundles the CLI with esbuild. Code splitting keeps the start path small: modules that a
// headless run does not need (SQLite ledger, MCP, UI, fast-glob) are loaded with dynamic import()
// and land in their own chunks. Nothing may import them statically (not even a barrel
// re-export), or esbuild moves them into a chunk on the start path: `node scripts/build.mjs
// --analyze` prints what each chunk holds. `--outdir <dir>` builds somewhere else than dist/.
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { pathToFileURL } from "node:url";
import {
  catalogueAsJsonText,
  dropZodLocales,
  inkMeasureText,
  inkOwnedModules,
  fastStringWidth,
  inkNeverInCi,
  lazyCommanderSpawn,
  nativeRequire,
  noReactDevtools,
  privateZodMini,
  startPathAnchor,
} from "./build-plugins.mjs";
import { toCommonJs } from "./commonjs-chunks.mjs";

const { version } = JSON.parse(readFileSync("package.json", "utf8"));
const args = process.argv.slice(2);
const outdirAt = args.indexOf("--outdir");
const target = outdirAt >= 0 ? args[outdirAt + 1].replace(/\/+$/, "") : "dist";
const analyze = args.includes("--analyze");

// The built-in tools' definitions (JSON schemas converted from their zod schemas) computed once
// here rather than in every process (src/tools/builtin/index.ts reads them): bundle it, ask it.
const probe = "node_modules/.cache/tern-tool-schemas.mjs";
await build({
  stdin: {
    contents: 'export { builtinDefinitions as definitions } from "./src/tools/builtin/index.ts";',
    resolveDir: ".",
    loader: "ts",
  },
  outfile: probe,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  plugins: [dropZodLocales],
  logLevel: "warning",
});
const { definitions } = await import(`${pathToFileURL(probe).href}?${Date.now()}`);

// Bundled CommonJS code calls `require` (Node's own modules, mostly). Every ES module file (the
// library's, and the CLI's few that stay ES modules) gets one, made on its first call: a
// createRequire per file loaded costs path work at start-up for files that never require anything.
const requireShim =
  "import { createRequire as __ternCreateRequire } from 'node:module'; let __ternRequire; const require = (id) => (__ternRequire ??= __ternCreateRequire(import.meta.url))(id);";

// Build beside the target and swap it in at the end, so a process running the old build (a
// test, a session) never finds it half-written.
const out = `${target}.build-${process.pid}`;
rmSync(out, { recursive: true, force: true });
// A build that fails leaves nothing half-built beside the target.
process.on("exit", (code) => {
  if (code !== 0) rmSync(out, { recursive: true, force: true });
});
const result = await build({
  entryPoints: { tern: "src/cli/main.ts" },
  outdir: out,
  bundle: true,
  jsx: "automatic",
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: false,
  // Whitespace and syntax only: a quarter fewer bytes to compile, names kept for stack traces.
  minifyWhitespace: true,
  minifySyntax: true,
  minifyIdentifiers: true,
  metafile: analyze,
  plugins: [
    dropZodLocales,
    noReactDevtools,
    privateZodMini,
    lazyCommanderSpawn,
    startPathAnchor,
    nativeRequire,
    inkMeasureText,
    inkOwnedModules,
    inkNeverInCi,
    fastStringWidth,
    catalogueAsJsonText,
  ],
  // Loaded with require() on first use (skills front matter), never on the start path.
  // better-sqlite3's JavaScript is bundled (src/record/ledger.ts opens its addon by path).
  // bindings: better-sqlite3 asks for it only without a nativeBinding, and ledger-addon.ts always
  // gives one (else it loads the installed package whole).
  external: ["yaml", "bindings"],
  // The schemas go in as one string literal, parsed where they are used: an object literal would
  // be hoisted into the chunk every entry loads, `tern --version` included.
  define: {
    __TERN_VERSION__: JSON.stringify(version),
    __TERN_BUILTIN_TOOLS__: JSON.stringify(JSON.stringify(definitions)),
    // Modules that load on first use do so in the CLI; from the sources they load at once.
    __TERN_LAZY_MODULES__: "true",
    // React, its reconciler and Ink pick their development builds when NODE_ENV is not
    // "production" (a user's shell rarely sets it): ~2x the UI's CPU per frame, performance
    // marks kept for good, and the dead branch bundled. The bundle is always the production one.
    "process.env.NODE_ENV": JSON.stringify("production"),
  },
  banner: {
    js: "#!/usr/bin/env node",
  },
  logLevel: "warning",
});
await toCommonJs(out, requireShim);
chmodSync(`${out}/tern.js`, 0o755);

// The library entry (`import { openSession } from "tern"`): its own bundle beside the CLI's, so
// the CLI's chunks and start path stay as they are. Dependencies stay imports of the installed
// packages. Its .d.ts files come from tsc, emitted incrementally into a cache and copied in.
await build({
  entryPoints: { index: "src/lib/index.ts" },
  outdir: `${out}/lib`,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  minifySyntax: true,
  define: { __TERN_VERSION__: JSON.stringify(version) },
  banner: {
    js: requireShim,
  },
  logLevel: "warning",
});
writeFileSync(`${out}/lib/package.json`, `${JSON.stringify({ type: "module" })}\n`);
const typesCache = "node_modules/.cache/tern-lib-types";
const tsc = spawnSync(
  process.execPath,
  [
    "node_modules/typescript/bin/tsc",
    "-p",
    "tsconfig.lib.json",
    "--outDir",
    typesCache,
    "--incremental",
    "--tsBuildInfoFile",
    `${typesCache}.tsbuildinfo`,
  ],
  { stdio: "inherit" },
);
if (tsc.status !== 0) throw new Error("tsc could not emit the library's .d.ts files");
cpSync(typesCache, `${out}/lib/types`, { recursive: true });
// A process started from the old build may still import its hash-named chunks: keep them.
if (existsSync(target)) {
  for (const name of readdirSync(target)) {
    if (statSync(`${target}/${name}`).isDirectory()) continue;
    // …for a while: a chunk older than ten minutes has no reader left (the folder stays small).
    const { atime, mtime } = statSync(`${target}/${name}`);
    if (Date.now() - mtime.getTime() > 10 * 60 * 1000 || existsSync(`${out}/${name}`)) continue;
    copyFileSync(`${target}/${name}`, `${out}/${name}`);
    utimesSync(`${out}/${name}`, atime, mtime);
  }
}
const old = `${target}.old-${process.pid}`;
if (existsSync(target)) renameSync(target, old);
renameSync(out, target);
rmSync(old, { recursive: true, force: true });

if (analyze && args.includes("--reach")) {
  // For each chunk: the entry outputs whose static import closure contains it.
  const outs = result.metafile.outputs;
  const closure = (file, seen = new Set()) => {
    for (const i of outs[file].imports)
      if (i.kind === "import-statement" && !i.external && outs[i.path] && !seen.has(i.path)) {
        seen.add(i.path);
        closure(i.path, seen);
      }
    return seen;
  };
  const entries = Object.keys(outs).filter((f) => outs[f].entryPoint && f.endsWith(".js"));
  for (const f of Object.keys(outs).filter((f) => f.endsWith(".js"))) {
    const by = entries
      .filter((e) => e === f || closure(e).has(f))
      .map((e) =>
        e
          .split("/")
          .pop()
          .replace(/-[A-Z0-9]+\.js$/, ""),
      );
    console.log(`${f.split("/").pop()}\t${outs[f].bytes}\t${by.join(",")}`);
  }
}
if (analyze && args.includes("--inputs")) {
  for (const [file, output] of Object.entries(result.metafile.outputs))
    for (const [input, info] of Object.entries(output.inputs))
      console.log(`${file.split("/").pop()}\t${info.bytesInOutput}\t${input}`);
}
if (analyze) {
  // Per output: size, entry, chunks it imports (`?` = dynamic), biggest inputs by package.
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    const sizes = {};
    for (const [input, info] of Object.entries(output.inputs)) {
      const pkg =
        input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ?? input.split("/").slice(0, 2).join("/");
      sizes[pkg] = (sizes[pkg] ?? 0) + info.bytesInOutput;
    }
    const chunks = output.imports
      .filter((i) => !i.external)
      .map((i) => `${i.path.split("/").pop()}${i.kind === "dynamic-import" ? "?" : ""}`);
    const top = Object.entries(sizes)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6);
    const name = file.split("/").pop();
    console.log(
      `${(output.bytes / 1024).toFixed(0).padStart(6)} KB  ${name}${output.entryPoint ? ` (${output.entryPoint})` : ""}`,
    );
    console.log(`          imports: ${[...new Set(chunks)].join(" ") || "-"}`);
    console.log(`          holds: ${top.map(([k, v]) => `${k} ${(v / 1024).toFixed(0)}K`).join(", ")}`);
  }
}
