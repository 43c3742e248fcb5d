// Linux: the command runs under bubblewrap. The whole file system is bound read-only, then the
// writable folders are bound read-write over it, then the protected folders read-only again
// (later binds win), in a new PID namespace, and in a new network namespace unless allowed.
// Without network, a seccomp filter read from descriptor 3 refuses Unix sockets (seccomp.ts).
import type { SandboxPolicy } from "./policy.js";

/** The descriptor bubblewrap reads the seccomp filter from. */
export const SECCOMP_FD = 3;

export function bubblewrapArgs(policy: SandboxPolicy, command: readonly string[], seccomp = false): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  for (const path of policy.writable) args.push("--bind", path, path);
  for (const path of policy.readOnly) args.push("--ro-bind", path, path);
  // A new PID namespace: the command cannot see or signal tern or the user's other processes.
  args.push("--unshare-pid", "--die-with-parent");
  if (!policy.network) args.push("--unshare-net");
  if (!policy.network && seccomp) args.push("--seccomp", String(SECCOMP_FD));
  args.push("--chdir", policy.cwd, "--", ...command);
  return args;
}
