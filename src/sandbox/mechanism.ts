// Which OS mechanism can sandbox a command here, checked once per process: bubblewrap on Linux
// (it must actually start: some containers forbid the namespaces it needs), sandbox-exec on macOS.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { bubblewrapArgs } from "./bubblewrap.js";
import type { SandboxPolicy } from "./policy.js";
import { seatbeltArgs } from "./seatbelt.js";

export type Mechanism =
  | { available: true; name: "bubblewrap" | "sandbox-exec"; path: string }
  | { available: false; why: string };

let cached: Mechanism | undefined;

function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(":")) {
    if (dir && existsSync(`${dir}/${name}`)) return `${dir}/${name}`;
  }
  return undefined;
}

function probe(): Mechanism {
  if (process.platform === "darwin") {
    const path = "/usr/bin/sandbox-exec";
    return existsSync(path)
      ? { available: true, name: "sandbox-exec", path }
      : { available: false, why: "sandbox-exec was not found at /usr/bin/sandbox-exec" };
  }
  if (process.platform !== "linux")
    return { available: false, why: `no sandbox mechanism for ${process.platform} (Linux and macOS only)` };
  const path = findOnPath("bwrap");
  if (!path)
    return {
      available: false,
      why: "bubblewrap (bwrap) is not installed; install it with 'apt-get install bubblewrap' (Debian/Ubuntu) or 'dnf install bubblewrap' (Fedora)",
    };
  const tryRun = spawnSync(path, ["--ro-bind", "/", "/", "--unshare-pid", "--unshare-net", "--", "true"], {
    stdio: ["ignore", "ignore", "pipe"],
    timeout: 10_000,
    encoding: "utf8",
  });
  if (tryRun.status !== 0) {
    const why = (tryRun.stderr || tryRun.error?.message || "it exited with an error").trim().split("\n")[0];
    return { available: false, why: `bubblewrap cannot create its namespaces here (${why})` };
  }
  return { available: true, name: "bubblewrap", path };
}

export function sandboxMechanism(): Mechanism {
  cached ??= probe();
  return cached;
}

/** The program and arguments that run `command` inside the sandbox. */
export function sandboxedCommand(
  mechanism: Extract<Mechanism, { available: true }>,
  policy: SandboxPolicy,
  command: readonly string[],
): { file: string; args: string[] } {
  return mechanism.name === "bubblewrap"
    ? { file: mechanism.path, args: bubblewrapArgs(policy, command) }
    : { file: mechanism.path, args: seatbeltArgs(policy, command) };
}
