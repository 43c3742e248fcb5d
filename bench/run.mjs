// `npm run bench`: bundles the TypeScript benchmarks (bench/src, plus the test fake provider and
// the src/ modules the micro-benchmarks drive) with esbuild into node_modules/.cache (never
// committed, no TS loader needed), then runs them against the built CLI in dist/.
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
if (!existsSync(join(root, "dist/tern.js"))) {
  console.error("bench: dist/tern.js is missing; run `npm run build` first (npm run bench does)");
  process.exit(2);
}
const outfile = join(root, "node_modules/.cache/tern-bench/main.mjs");
await build({
  entryPoints: [join(root, "bench/src/main.ts")],
  outfile,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // Native addons load their .node files relative to their own package.
  external: ["better-sqlite3", "node-pty"],
  banner: {
    js: "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);",
  },
  logLevel: "warning",
});
// The stand-in bench's child: CommonJS, so a fresh process loads it without the ES module loader.
await build({
  entryPoints: [join(root, "bench/src/stand-in-child.ts")],
  outfile: join(root, "node_modules/.cache/tern-bench/stand-in-child.cjs"),
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  external: ["jsonc-parser"],
  logLevel: "warning",
});
const { main } = await import(pathToFileURL(outfile).href);
process.exitCode = await main({ root, argv: process.argv.slice(2) });
