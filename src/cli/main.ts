// Entry point. `--version` answers before anything else is loaded, so start-up stays close to
// bare Node; every command's implementation is loaded on demand.
declare const __TERN_VERSION__: string;

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  process.stdout.write(`${__TERN_VERSION__}\n`);
} else {
  const { runProgram } = await import("./program.js");
  process.exitCode = await runProgram(argv, __TERN_VERSION__);
}
