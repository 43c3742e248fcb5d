// Package runners run a command they are given (for deny rules, bash-deny.ts): `npx rm -rf x`,
// `npm exec -- rm -rf x`, `yarn exec rm -rf x`, `pnpm dlx …`, and a command line after `-c`
// (`npx -c 'rm -rf x'`, `npm exec -c '…'`). npm itself stays an ordinary program, so `always`
// for `npm test` keeps covering `npm test …`.
import type { DenyWord } from "./bash-deny-match.js";

const RUNNERS = new Set(["npx", "pnpx", "bunx"]);
const MANAGERS = new Set(["npm", "pnpm", "yarn", "bun"]);
const RUN_SUBCOMMANDS = new Set(["exec", "x", "dlx"]);

export interface RunnerCommands {
  /** Strings run as command lines (`-c`, `--call`). */
  lines: string[];
  /** Index in `args` where a command starts, or null. */
  from: number | null;
}

export function packageRunnerCommands(name: string, args: DenyWord[]): RunnerCommands {
  const out: RunnerCommands = { lines: [], from: null };
  let k = 0;
  if (MANAGERS.has(name)) {
    k = args.findIndex((a) => RUN_SUBCOMMANDS.has(a.value));
    if (k < 0) return out;
    k++;
  } else if (!RUNNERS.has(name)) return out;
  for (; k < args.length; k++) {
    const a = args[k].value;
    if (a === "-c" || a === "--call") {
      if (k + 1 < args.length) out.lines.push(args[k + 1].value);
      k++;
    } else if (a.startsWith("--call=")) out.lines.push(a.slice("--call=".length));
    else if (a === "--") {
      if (k + 1 < args.length) out.from = k + 1;
      return out;
    } else if (!a.startsWith("-")) {
      out.from = k;
      return out;
    } else if (/^(-p|--package)$/.test(a)) k++;
  }
  return out;
}
