// Which OS mechanism can sandbox a command here, checked once per process: bubblewrap on Linux
// (it must actually start: some containers forbid the namespaces it needs), sandbox-exec on macOS.
import type { SpawnSyncReturns } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { join } from "node:path";
import { programPath } from "../programs/program-path.js";
import { bubblewrapArgs, SECCOMP_FD } from "./bubblewrap.js";
import type { SandboxPolicy } from "./policy.js";
import { unixSocketFilter } from "./seccomp.js";
import { seatbeltArgs } from "./seatbelt.js";

export type Mechanism =
  | { available: true; name: "bubblewrap" | "sandbox-exec"; path: string }
  | { available: false; why: string };

let cached: Mechanism | undefined;

function probe(): Mechanism {
  if (process.platform === "darwin") {
    const path = "/usr/bin/sandbox-exec";
    return existsSync(path)
      ? { available: true, name: "sandbox-exec", path }
      : { available: false, why: "sandbox-exec was not found at /usr/bin/sandbox-exec" };
  }
  if (process.platform !== "linux")
    return { available: false, why: `no sandbox mechanism for ${process.platform} (Linux and macOS only)` };
  // From an absolute PATH entry outside the workspace (§10): a repository cannot supply the sandbox.
  const path = programPath("bwrap");
  if (!path)
    return {
      available: false,
      why: "bubblewrap (bwrap) is not installed; install it with 'apt-get install bubblewrap' (Debian/Ubuntu) or 'dnf install bubblewrap' (Fedora)",
    };
  const tryRun = probeRun(path);
  if (tryRun.status !== 0) {
    const why = (tryRun.stderr || tryRun.error?.message || "it exited with an error").trim().split("\n")[0];
    return { available: false, why: `bubblewrap cannot create its namespaces here (${why})` };
  }
  return { available: true, name: "bubblewrap", path };
}

/** bwrap with the namespaces and the seccomp filter a sandboxed command gets, running `true`. */
function probeRun(path: string): SpawnSyncReturns<string> {
  const filter = unixSocketFilter();
  const args = ["--ro-bind", "/", "/", "--unshare-pid", "--unshare-net"];
  // The probe runs before any sandboxed command, so a private temp file is safe to hand over here.
  const dir = filter ? mkdtempSync(join(tmpdir(), "tern-probe-")) : undefined;
  let fd: number | undefined;
  if (dir && filter) {
    writeFileSync(join(dir, "filter"), filter, { mode: 0o600 });
    fd = openSync(join(dir, "filter"), "r");
    args.push("--seccomp", String(SECCOMP_FD));
  }
  try {
    // Required here: child_process costs every start that never probes (sandbox off) ~2 ms.
    const { spawnSync } = createRequire(import.meta.url)(
      "node:child_process",
    ) as typeof import("node:child_process");
    return spawnSync(path, [...args, "--", "true"], {
      stdio: ["ignore", "ignore", "pipe", fd ?? "ignore"],
      timeout: 10_000,
      encoding: "utf8",
    });
  } finally {
    if (fd !== undefined) closeSync(fd);
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
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
): { file: string; args: string[]; fd3?: Buffer } {
  if (mechanism.name !== "bubblewrap") return { file: mechanism.path, args: seatbeltArgs(policy, command) };
  const filter = policy.network ? undefined : unixSocketFilter();
  return { file: mechanism.path, args: bubblewrapArgs(policy, command, filter !== undefined), fd3: filter };
}
