// Linux: the command runs under bubblewrap. The whole file system is bound read-only, then the
// writable folders are bound read-write over it, then the protected folders read-only again
// (later binds win; a `.git`/`.tern` not made yet has an empty placeholder, placeholders.ts),
// TERN_HOME masked by an empty folder, in a new PID namespace, and in a new network namespace unless allowed.
// Without network, a seccomp filter read from descriptor 3 refuses Unix sockets (seccomp.ts).
import type { SandboxPolicy } from "./policy.js";

/** The descriptor bubblewrap reads the seccomp filter from. */
export const SECCOMP_FD = 3;

export function bubblewrapArgs(policy: SandboxPolicy, command: readonly string[], seccomp = false): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  for (const path of policy.writable) args.push("--bind", path, path);
  // A placeholder that could not be made (a workspace the user cannot write) is skipped, not fatal.
  for (const path of policy.readOnly)
    args.push(policy.placeholders.includes(path) ? "--ro-bind-try" : "--ro-bind", path, path);
  // TERN_HOME: an empty read-only folder over it, so its keys and tokens cannot even be read.
  for (const path of policy.hidden) args.push("--tmpfs", path, "--remount-ro", path);
  // A new PID namespace: the command cannot see or signal tern or the user's other processes.
  args.push("--unshare-pid", "--die-with-parent");
  if (!policy.network) args.push("--unshare-net");
  if (!policy.network && seccomp) args.push("--seccomp", String(SECCOMP_FD));
  args.push("--chdir", policy.cwd, "--", ...command);
  return args;
}
