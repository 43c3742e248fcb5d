// Linux: the command runs under bubblewrap. The whole file system is bound read-only, then the
// writable folders are bound read-write over it, then the protected folders read-only again
// (later binds win), in a new PID namespace, and in a new network namespace unless allowed.
import type { SandboxPolicy } from "./policy.js";

export function bubblewrapArgs(policy: SandboxPolicy, command: readonly string[]): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  for (const path of policy.writable) args.push("--bind", path, path);
  for (const path of policy.readOnly) args.push("--ro-bind", path, path);
  // A new PID namespace: the command cannot see or signal tern or the user's other processes.
  args.push("--unshare-pid", "--die-with-parent");
  if (!policy.network) args.push("--unshare-net");
  args.push("--chdir", policy.cwd, "--", ...command);
  return args;
}
