// Rewrites the CLI's build (esbuild splits ES modules only) as CommonJS files, after the split.
// Why: Node loads an ES module graph through its ES module loader, which brings fs/promises,
// readline and a dozen more of its own modules with it: ~1.1 MB more peak memory and a few ms
// more start-up than require() of the same code, on every run.
// - import("./chunk.js") becomes require() in a promise, so the loader is never started.
// - import.meta.url becomes the file's URL, made on first use.
// - A file with top-level await (the UI's: its layout engine loads WebAssembly that way) cannot
//   be CommonJS. It stays an ES module, renamed .mjs, with every file that imports it statically;
//   the others reach it with a real import(), which starts the loader only then. It reaches the
//   CommonJS files by name (Node finds their export names) and by require() for a dynamic import.
// - dist/package.json says the folder is CommonJS; what stays an ES module is named .mjs.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { transform } from "esbuild";

const META_URL =
  'const __ternMeta = { get url() { return require("node:url").pathToFileURL(__filename).href; } };';
// Added after esbuild's rewrite, so this import() stays a real one.
const IMPORT_ESM = "const __ternImportEsm = (specifier) => import(specifier);";

/** @param {string} dir the build folder; @param {string} requireShim `require` for ES module files */
export async function toCommonJs(dir, requireShim) {
  const sources = new Map();
  // esbuild's banner gives every file the CLI's #! line; only the entry keeps it (below).
  for (const name of readdirSync(dir))
    if (name.endsWith(".js"))
      sources.set(name, readFileSync(`${dir}/${name}`, "utf8").replace(/^#!.*\n/, ""));

  const converted = new Map();
  const esm = new Set();
  for (const [name, source] of sources) {
    try {
      converted.set(name, await commonJs(name, source));
    } catch (err) {
      if (!/Top-level await/.test(err.message)) throw err;
      esm.add(name);
    }
  }
  // require() cannot load an ES module: whatever imports one statically stays one too.
  for (let grew = true; grew; ) {
    grew = false;
    for (const [name, source] of sources)
      if (!esm.has(name) && staticImports(source).some((dep) => esm.has(dep))) {
        esm.add(name);
        grew = true;
      }
  }
  if (esm.has("tern.js")) throw new Error("commonjs-chunks: the CLI entry cannot be CommonJS");

  for (const [name, source] of sources) {
    if (esm.has(name)) {
      // import() of a CommonJS file would give its whole exports as `default`: require it.
      const bridged = source.replace(DYNAMIC_IMPORT, (whole, dep) =>
        esm.has(dep) ? whole : `Promise.resolve().then(()=>require("./${dep}"))`,
      );
      writeFileSync(`${dir}/${mjs(name)}`, `${requireShim}\n${renamed(bridged, esm)}`);
      rmSync(`${dir}/${name}`);
      continue;
    }
    let code = converted.get(name);
    if (dynamicImports(source).some((dep) => esm.has(dep))) {
      const marked = source.replace(DYNAMIC_IMPORT, (whole, dep) =>
        esm.has(dep) ? `__ternImportEsm("./${mjs(dep)}")` : whole,
      );
      code = await commonJs(name, marked, IMPORT_ESM);
    }
    writeFileSync(`${dir}/${name}`, name === "tern.js" ? `#!/usr/bin/env node\n${code}` : code);
  }
  writeFileSync(`${dir}/package.json`, `${JSON.stringify({ type: "commonjs" })}\n`);
}

async function commonJs(name, source, prelude = "") {
  const { code, warnings } = await transform(source, {
    sourcefile: name,
    format: "cjs",
    loader: "js",
    platform: "node",
    target: "node20",
    supported: { "dynamic-import": false },
    define: { "import.meta.url": "__ternMeta.url" },
    minifyWhitespace: true,
    minifySyntax: true,
    minifyIdentifiers: true,
    logLevel: "silent",
  });
  // Silent above, since top-level await is an expected refusal; anything else is said here.
  for (const w of warnings) console.warn(`commonjs-chunks: ${name}: ${w.text}`);
  // An ES module is strict code; the same code as CommonJS stays strict.
  return `"use strict";${prelude}${code.includes("__ternMeta.url") ? META_URL : ""}${code}`;
}

// esbuild's own output: `import{a as b}from"./chunk-X.js"`, `import"./chunk-X.js"`, `import("./x.js")`.
const DYNAMIC_IMPORT = /\bimport\("\.\/([^"]+\.js)"\)/g;
/** The name a file that stays an ES module gets. */
const mjs = (name) => name.replace(/\.js$/, ".mjs");
function staticImports(source) {
  return [...source.matchAll(/(?:\bfrom\s*|\bimport\s*)"\.\/([^"]+\.js)"/g)].map((m) => m[1]);
}
function dynamicImports(source) {
  return [...source.matchAll(DYNAMIC_IMPORT)].map((m) => m[1]);
}
function renamed(source, esm) {
  return source.replace(/"\.\/([^"]+\.js)"/g, (whole, dep) => (esm.has(dep) ? `"./${mjs(dep)}"` : whole));
}
