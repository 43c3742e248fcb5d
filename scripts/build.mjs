// Bundles the CLI with esbuild. Code splitting keeps the start path small: modules that a
// headless run does not need (SQLite ledger, MCP, UI) are loaded with dynamic import() and
// land in their own chunks.
import { build } from "esbuild";
import { chmodSync, readFileSync, rmSync } from "node:fs";

const { version } = JSON.parse(readFileSync("package.json", "utf8"));

rmSync("dist", { recursive: true, force: true });
await build({
  entryPoints: { tern: "src/cli/main.ts" },
  outdir: "dist",
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
chmodSync("dist/tern.js", 0o755);
