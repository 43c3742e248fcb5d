// The OS sandbox around `bash` for one session (R-SBX): the policy from the config, the
// mechanism of this machine, and the way a front end may let a failed command out.
import type { Config } from "../config/types.js";
import { sandboxedCommand, sandboxMechanism } from "../sandbox/mechanism.js";
import { sandboxBounds, sandboxPolicy } from "../sandbox/policy.js";
import type { PendingCall } from "../tools/executor.js";
import type { ShellSandbox } from "../tools/types.js";
import type { SessionHooks } from "./core.js";
import type { ApprovalPolicy } from "../tools/policy/approval.js";

/** Plan mode (R-PLAN-1): whether bash can run read-only here; the probe runs once, when first asked. */
export function planSandboxAvailable(): boolean {
  return sandboxMechanism().available;
}

/**
 * The sandbox bash runs in while planning: `read-only` with no network whatever `sandbox` says,
 * and no way out (a planning command that fails stays failed). Made on first use (the folder
 * walk for .git/.tern of sandboxPolicy), once; undefined without a mechanism.
 */
export function planShellSandbox(cwd: string, home: string): () => ShellSandbox | undefined {
  let made: { sandbox: ShellSandbox | undefined } | undefined;
  return () => {
    if (made) return made.sandbox;
    const mechanism = sandboxMechanism();
    const base = sandboxPolicy({ mode: "read-only", network: false, writableRoots: [] }, cwd, home)!;
    // The temp folder stays writable; a workspace inside it (/tmp/x) must not become so with it.
    const policy = { ...base, readOnly: [...base.readOnly, base.cwd] };
    made = {
      sandbox: mechanism.available
        ? { policy, wrap: (command) => sandboxedCommand(mechanism, policy, command) }
        : undefined,
    };
    return made.sandbox;
  };
}

/**
 * The sandbox of a session. `policy` (given once the session's approval policy exists) names
 * what `always` covers when a failed command is offered outside the sandbox, and holds the grant:
 * the program and first argument (or the line word for word, grant-scope.ts), never all of bash.
 */
export function shellSandbox(
  config: Config,
  cwd: string,
  home: string,
  hooks: SessionHooks,
  policy: () => ApprovalPolicy | undefined = () => undefined,
  notice: (text: string) => void = () => undefined,
): ShellSandbox | undefined {
  const bounds = sandboxBounds(config.sandbox, cwd, home, { onCapped: notice });
  // No sandbox asked for: no probe either (it spawns bwrap once, which a plain run need not pay).
  if (!bounds) return undefined;
  const mechanism = sandboxMechanism();
  if (!mechanism.available) return undefined;
  let current = bounds.current();
  const sandbox: ShellSandbox = {
    get policy() {
      return current;
    },
    // Each command gets the policy as of now: a repository an earlier command made is protected.
    wrap: (command) => {
      current = bounds.current();
      return { ...sandboxedCommand(mechanism, current, command), placeholders: current.placeholders };
    },
  };
  if (hooks.offersOutsideSandbox) {
    let asked = 0;
    sandbox.approveOutside = async (command) => {
      const id = `outside-sandbox-${++asked}`;
      const args = { command };
      const call = { name: "bash", args, kind: "shell" as const, paths: [] };
      // An `always` given for a command like this one before: it runs outside without asking again.
      if (policy()?.outsideGranted(call)) return true;
      const pending: PendingCall = {
        call: { id, name: "bash", arguments: JSON.stringify(args) },
        id,
        name: "bash",
        arguments: JSON.stringify(args),
        args,
        kind: "shell",
        paths: [],
        reason: "it failed inside the sandbox: run it again OUTSIDE the sandbox, unrestricted?",
        always: `${policy()?.describeAlways(call) ?? "this call only"}, outside the sandbox`,
        presentation: {
          title: command,
          kind: "execute",
          locations: [],
          preview: { type: "command", command },
        },
      };
      const answer = (await hooks.approve([pending])).get(id);
      if (answer === "always") policy()?.grantAlways(call);
      return answer === "approved" || answer === "always";
    };
  }
  return sandbox;
}
