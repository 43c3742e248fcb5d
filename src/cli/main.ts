// Entry point. `--version` answers before anything else is loaded, so start-up stays close to
// bare Node; every command's implementation is loaded on demand. No top-level await: the build
// turns the CLI into CommonJS, which has none.
import { loadThroughCodeCache } from "./code-cache.js";

declare const __TERN_VERSION__: string;

// A reader that went away (`tern run … | head -1`) is no error of ours: stop quietly. A turn that
// is running is cancelled first, as on a signal (its tools' processes killed, turn_end written):
// `tern run` listens for BROKEN_PIPE (the event's name is in cli/run.ts too).
const BROKEN_PIPE = "tern:stdout-closed";
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code !== "EPIPE") throw err;
  if (process.listenerCount(BROKEN_PIPE) > 0) process.emit(BROKEN_PIPE as "exit", 0);
  else process.exit(process.exitCode ?? 0);
});

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  process.stdout.write(`${__TERN_VERSION__}\n`);
} else {
  void main();
}

async function main(): Promise<void> {
  try {
    // The build is CommonJS: `module` is the entry's own (absent where main.ts runs as a source).
    loadThroughCodeCache(typeof module === "undefined" ? undefined : module);
    const { runProgram } = await import("./program.js");
    process.exitCode = await runProgram(argv, __TERN_VERSION__);
  } catch (err) {
    // User mistakes never get here (they are UsageErrors); this is a bug or the machine failing
    // (disk full, permissions). One line; the stack only on request.
    const message = err instanceof Error ? err.message : String(err);
    // A full or failing disk (record/errors.ts DiskError) is the machine's state, named as such.
    if (err instanceof Error && err.name === "DiskError") {
      process.stderr.write(`tern: ${message}\n`);
      process.exitCode = 1;
      return;
    }
    process.stderr.write(`tern: internal error: ${message}\n`);
    if (process.env.TERN_DEBUG && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
    else process.stderr.write("tern: set TERN_DEBUG=1 to see where it happened\n");
    process.exitCode = 1;
  }
}
