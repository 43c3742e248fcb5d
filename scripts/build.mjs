// Bundles the CLI with esbuild. Code splitting keeps the start path small: modules that a
// headless run does not need (SQLite ledger, MCP, UI) are loaded with dynamic import() and
// land in their own chunks.
import { build } from "esbuild";
import { chmodSync, copyFileSync, existsSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";

const { version } = JSON.parse(readFileSync("package.json", "utf8"));

// Build beside dist/ and swap it in at the end, so a process running the old build (a test, a
// session) never finds dist/ half-written.
const out = `dist.build-${process.pid}`;
rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: { tern: "src/cli/main.ts" },
  outdir: out,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: false,
  minify: false,
  external: ["better-sqlite3"],
  define: { __TERN_VERSION__: JSON.stringify(version) },
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __ternCreateRequire } from 'node:module'; const require = __ternCreateRequire(import.meta.url);",
  },
  logLevel: "warning",
});
chmodSync(`${out}/tern.js`, 0o755);
// A process started from the old build may still import its hash-named chunks: keep them.
if (existsSync("dist")) {
  for (const name of readdirSync("dist")) {
    if (!existsSync(`${out}/${name}`)) copyFileSync(`dist/${name}`, `${out}/${name}`);
  }
}
const old = `dist.old-${process.pid}`;
if (existsSync("dist")) renameSync("dist", old);
renameSync(out, "dist");
rmSync(old, { recursive: true, force: true });
