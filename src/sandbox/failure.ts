// A failed sandboxed command whose output reads like the sandbox stopped it (R-SBX-3): the result
// says so, so the model (and the person) know a re-run outside the sandbox is what would differ.
import type { SandboxPolicy } from "./policy.js";

const WRITE_DENIED = /read-only file system|EROFS|operation not permitted|permission denied/i;
const NETWORK_DENIED =
  /network is unreachable|ENETUNREACH|could not resolve host|temporary failure in name resolution|name or service not known|getaddrinfo|EAI_AGAIN|connection refused|ECONNREFUSED|no route to host/i;

export type SandboxBlock = "write" | "network";

/** A Unix socket refused by the sandbox's seccomp filter (no network): EACCES on socket or connect. */
const SOCKET_DENIED =
  /connect EACCES|socket\b.*(EACCES|permission denied)|(EACCES|permission denied).*\bsocket/i;

export function sandboxBlock(output: string, policy: SandboxPolicy): SandboxBlock | undefined {
  if (!policy.network && SOCKET_DENIED.test(output)) return "network";
  if (WRITE_DENIED.test(output)) return "write";
  if (!policy.network && NETWORK_DENIED.test(output)) return "network";
  return undefined;
}

export function sandboxNote(block: SandboxBlock, policy: SandboxPolicy): string {
  const where =
    policy.mode === "read-only"
      ? "only the temp folder is writable"
      : "only the workspace, the temp folder and sandbox.writableRoots are writable; .git/ and .tern/ are read-only";
  return block === "write"
    ? `[this command ran in the ${policy.mode} sandbox, where ${where}: the failure may be the sandbox's doing]`
    : "[this command ran in the sandbox without network access (sandbox.network is false; Unix sockets outside are refused too): the failure may be the sandbox's doing]";
}
