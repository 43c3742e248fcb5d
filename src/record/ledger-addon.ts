// Opening ledger.db (R-REC-8) with better-sqlite3: its JavaScript is bundled, its addon found
// beside the build and opened directly, so a one-round run does no module-loader path work for it.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";

/**
 * Opens the SQLite file. The build bundles better-sqlite3's JavaScript (one chunk instead of a
 * dozen CommonJS files resolved at the first turn end; the addon itself loads only here, in the
 * constructor), and the addon is opened by its path, which skips the `bindings` package's search
 * (a stack trace and a dozen probed paths). Where the addon is not at its usual place, the
 * installed package is loaded as it is and finds it its own way.
 */
export function openDatabase(file: string, options: Database.Options): Database.Database {
  const addon = addonPath();
  // better-sqlite3 takes the addon object as well as a path (lib/database.js); its types say path.
  if (addon) return new Database(file, { ...options, nativeBinding: loadAddon(addon) as unknown as string });
  const Installed = createRequire(import.meta.url)("better-sqlite3") as typeof Database;
  return new Installed(file, options);
}

const ADDON = "better-sqlite3/build/Release/better_sqlite3.node";
let addonFile: string | null | undefined;
function addonPath(): string | null {
  if (addonFile === undefined) {
    // The build's own node_modules first (dist/ sits beside it): a resolve walks every
    // node_modules folder up the tree, and realpaths what it finds, in JavaScript path code.
    const beside = fileURLToPath(new URL(`../node_modules/${ADDON}`, import.meta.url));
    try {
      addonFile = existsSync(beside) ? beside : createRequire(import.meta.url).resolve(ADDON);
    } catch {
      addonFile = null;
    }
  }
  return addonFile;
}

/**
 * The addon opened directly (what `require` of a .node file does underneath), so the module
 * loader's path resolution and realpath walk stay off the run: that path work is what makes V8
 * optimise `path.normalizeString` with TurboFan, ~3.5 MB of the compiler's code paged in.
 */
let addonModule: object | undefined;
function loadAddon(file: string): object {
  if (!addonModule) {
    const module = { exports: {} };
    process.dlopen(module, file);
    addonModule = module.exports;
  }
  return addonModule;
}
