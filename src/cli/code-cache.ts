// A V8 code cache for the build's own CommonJS files. Node 20 has no compile cache
// (`module.enableCompileCache` came in Node 22), so every run compiled the ~400 KB start chunk
// again, and again each function it ran: ~13% of a one-round run's instructions. Each file of
// the build is compiled with the code V8 made for it on an earlier run (after that run, so the
// functions it compiled lazily are in it too), kept in `.code-cache/` beside the files: the same
// owner and trust as the code itself, and a new build (a new folder) starts without one. A
// read-only install goes without; a cache V8 refuses (another Node, other flags) is made anew.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { Script } from "node:vm";

interface LoaderModule {
  exports: unknown;
  filename: string;
  require(id: string): unknown;
}

interface ModuleClass {
  prototype: { _compile(this: LoaderModule, content: string, filename: string): unknown };
  wrap(content: string): string;
  _resolveFilename(request: string, parent: LoaderModule, isMain: boolean, options?: unknown): string;
  _cache: unknown;
  _extensions: unknown;
}

/** What the cache did in this process (the tests read it). */
export interface CodeCache {
  /** Files compiled from a cache V8 accepted. */
  accepted: number;
  /** Files compiled without one (none yet, or refused): their cache is written at exit. */
  made: number;
}

/**
 * From the entry module (`module` of the CLI's CommonJS entry) on, the files beside it load
 * through the cache. `TERN_NO_CODE_CACHE=1` turns it off (the bench compares the two).
 */
export function loadThroughCodeCache(entry: LoaderModule | undefined): CodeCache | undefined {
  if (!entry || process.env.TERN_NO_CODE_CACHE) return undefined;
  const Module = entry.constructor as unknown as ModuleClass;
  if (typeof Module?.wrap !== "function" || typeof Module.prototype?._compile !== "function")
    return undefined;
  const own = dirname(entry.filename);
  const folder = join(own, ".code-cache");
  const compile = Module.prototype._compile;
  const made: [Script, string][] = [];
  const cache: CodeCache = { accepted: 0, made: 0 };
  Module.prototype._compile = function (this: LoaderModule, content: string, filename: string) {
    // A real import() needs the loader's own compile (a vm.Script has no module loader for it).
    if (dirname(filename) !== own || !filename.endsWith(".js") || content.includes("import("))
      return compile.call(this, content, filename);
    // V8 checks a cache against the source's length only: the file's size and time name it.
    let stamp: string;
    try {
      const stat = statSync(filename);
      // And V8's version: two Nodes sharing one install keep a cache each instead of taking turns.
      stamp = `${stat.size}-${Math.trunc(stat.mtimeMs)}-${process.versions.v8}`;
    } catch {
      return compile.call(this, content, filename);
    }
    const file = join(folder, `${basename(filename)}.${stamp}.v8`);
    let cachedData: Buffer | undefined;
    try {
      cachedData = readFileSync(file);
    } catch {}
    const script = new Script(Module.wrap(content), { filename, cachedData });
    if (cachedData === undefined || script.cachedDataRejected) {
      made.push([script, file]);
      cache.made++;
    } else cache.accepted++;
    return (script.runInThisContext() as (...args: unknown[]) => unknown).call(
      this.exports,
      this.exports,
      requireFor(this, Module),
      this,
      filename,
      own,
    );
  };
  process.once("exit", () => saveMade(made, folder));
  return cache;
}

function saveMade(made: [Script, string][], folder: string): void {
  if (made.length === 0) return;
  try {
    mkdirSync(folder, { recursive: true });
    for (const [script, file] of made.splice(0)) {
      // Written whole, then renamed: a process reading it meanwhile sees the old file or none.
      const part = `${file}.${process.pid}`;
      writeFileSync(part, script.createCachedData());
      renameSync(part, file);
    }
  } catch {}
}

/** What Node's loader gives a CommonJS file as `require`. */
function requireFor(module: LoaderModule, Module: ModuleClass) {
  const require = (id: string) => module.require(id);
  require.resolve = (request: string, options?: unknown) =>
    Module._resolveFilename(request, module, false, options);
  require.main = process.mainModule;
  require.cache = Module._cache;
  require.extensions = Module._extensions;
  return require;
}
