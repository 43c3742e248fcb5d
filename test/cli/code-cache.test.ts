// The CLI's V8 code cache, in real node processes (V8 keeps compiled code in memory too, so one
// process could not tell a cache used from one refused): the files beside the entry load through
// it and behave as Node's own loader makes them behave; a second run takes the code the first one
// made; a damaged cache is refused by V8 and made anew; an edit of the same length is not served
// stale code; files elsewhere and TERN_NO_CODE_CACHE are left to Node.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildSync } from "esbuild";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs | undefined;
afterEach(() => {
  dirs?.cleanup();
  dirs = undefined;
});

function setUp() {
  dirs = makeTempDirs("tern-code-cache-");
  const dist = join(dirs.root, "dist");
  const other = join(dirs.root, "other");
  mkdirSync(dist, { recursive: true });
  mkdirSync(other, { recursive: true });
  buildSync({
    entryPoints: [resolve(import.meta.dirname, "../../src/cli/code-cache.ts")],
    bundle: true,
    platform: "node",
    format: "cjs",
    outfile: join(dirs.root, "code-cache.cjs"),
    logLevel: "silent",
  });
  // The entry, as the CLI's: the cache from its own module on, then the build's files.
  writeFileSync(
    join(dist, "tern.js"),
    [
      "const cache = require('../code-cache.cjs').loadThroughCodeCache(module);",
      "const chunk = require('./chunk.js');",
      "const plain = require('../other/plain.js');",
      "process.stdout.write(JSON.stringify({ chunk, plain, accepted: cache?.accepted, made: cache?.made }));",
    ].join("\n"),
  );
  writeFileSync(
    join(dist, "chunk.js"),
    [
      '"use strict";',
      'const { basename } = require("node:path");',
      'const helper = require("./helper.js");',
      "module.exports = {",
      "  name: basename(__filename),",
      "  dir: __dirname,",
      '  resolved: require.resolve("./helper.js"),',
      "  sum: helper.add(2, 3),",
      "  self: this === module.exports,",
      "};",
    ].join("\n"),
  );
  writeFileSync(join(dist, "helper.js"), "exports.add = (a, b) => a + b;\n");
  writeFileSync(join(other, "plain.js"), "module.exports = 42;\n");
  const run = (env: Record<string, string> = {}) => {
    const r = spawnSync(process.execPath, [join(dist, "tern.js")], {
      encoding: "utf8",
      env: { ...process.env, ...env },
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    return JSON.parse(r.stdout);
  };
  return { dist, other, run };
}

describe("the CLI's code cache", () => {
  it("loads the build's files as Node does, then from the code an earlier run made", () => {
    const { dist, other, run } = setUp();
    const chunk = (sum: number) => ({
      name: "chunk.js",
      dir: dist,
      resolved: join(dist, "helper.js"),
      sum,
      self: true,
    });
    expect(run()).toEqual({ chunk: chunk(5), plain: 42, accepted: 0, made: 2 });
    const folder = join(dist, ".code-cache");
    const files = readdirSync(folder).sort();
    expect(files).toHaveLength(2);
    expect(files[0]).toBe(
      `chunk.js.${statSync(join(dist, "chunk.js")).size}-${Math.trunc(statSync(join(dist, "chunk.js")).mtimeMs)}-${process.versions.v8}.v8`,
    );
    expect(existsSync(join(other, ".code-cache"))).toBe(false);
    expect(run()).toEqual({ chunk: chunk(5), plain: 42, accepted: 2, made: 0 });

    // A damaged cache: V8 refuses it, the file compiles from its source and its cache is made anew.
    writeFileSync(join(folder, files[0]), Buffer.alloc(4096, 7));
    expect(run()).toEqual({ chunk: chunk(5), plain: 42, accepted: 1, made: 1 });
    expect(run()).toEqual({ chunk: chunk(5), plain: 42, accepted: 2, made: 0 });

    // An edit that keeps the file's length (V8 would take the old code for it).
    writeFileSync(join(dist, "helper.js"), "exports.add = (a, b) => a * b;\n");
    const later = new Date(Date.now() + 5000);
    utimesSync(join(dist, "helper.js"), later, later);
    expect(run()).toEqual({ chunk: chunk(6), plain: 42, accepted: 1, made: 1 });
  });

  it("is off with TERN_NO_CODE_CACHE", () => {
    const { dist, run } = setUp();
    expect(run({ TERN_NO_CODE_CACHE: "1" }).made).toBeUndefined();
    expect(existsSync(join(dist, ".code-cache"))).toBe(false);
  });
});
