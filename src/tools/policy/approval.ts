// The approval policy of R-TOOL-2 / R-CFG-2: modes, allow/deny rules, session grants and
// `/yolo once`. Deny wins over everything; writes outside the workspace, or into its .git/
// and .tern/, need an approval that names the (symlink-resolved) path in every mode but yolo.
// This module holds a session's policy; how a call is judged lives in judge/ (its face loads it
// with the first tool batch: `loadApprovalJudge`; from the sources, at once).
import type { PermissionMode } from "../../config/types.js";
import { loadsAtOnce } from "../../config/on-first-use.js";
import { describeRuleError } from "../../config/rule-syntax.js";
import type {
  ApprovalCall,
  ApprovalDecision,
  ApprovalPolicyOptions,
  ApprovalVerdict,
  PolicyState,
} from "./approval-types.js";
import { realPathLoose, realPathsIn } from "../paths.js";
import type { ResolvedHost } from "../builtin/web-fetch-address.js";
import { approvalJudge as judge } from "./judge/index.js";
import { offeredInMode } from "./mode-offer.js";
import type { Tool } from "../types.js";

export type * from "./approval-types.js";

/** Loads how calls are judged, once per process; the executor waits for it before a batch. */
export async function loadApprovalJudge(): Promise<void> {
  await judge.load();
}

if (loadsAtOnce) await judge.load();

function checkRules(texts: string[], which: string): string[] {
  for (const t of texts) {
    const error = describeRuleError(t);
    // Config loading rejects bad rules first (R-CFG-1); this guards direct construction.
    if (error) throw new Error(`permissions.${which}: ${error}`);
  }
  return [...texts];
}

export class ApprovalPolicy {
  private readonly state: PolicyState;
  /** The configured allow rules, which a turn's own rules (`setTurnAllow`) add to. */
  private readonly configAllow: string[];

  constructor(opts: ApprovalPolicyOptions) {
    this.state = {
      mode: opts.mode,
      yoloOnce: false,
      allow: checkRules(opts.allow, "allow"),
      deny: checkRules(opts.deny, "deny"),
      ask: checkRules(opts.ask ?? [], "ask"),
      cwd: opts.cwd,
      realCwd: realPathLoose(opts.cwd),
      sandboxedShell: opts.sandboxedShell === true,
      realTernHome: opts.ternHome ? realPathLoose(opts.ternHome) : undefined,
      planSandbox: opts.planSandbox ?? (() => false),
      toolGrants: new Set(),
      pathGrants: new Set(),
      bashGrants: new Set(),
    };
    this.configAllow = this.state.allow;
  }

  /**
   * A custom command's `allowed-tools` (R-WF-2): these rules allow calls for the turn the command
   * runs; `[]` ends them. Deny rules still win. Returns the rules that are not valid, unused.
   */
  setTurnAllow(rules: readonly string[]): string[] {
    const valid = rules.filter((r) => describeRuleError(r) === null);
    this.state.allow = valid.length > 0 ? [...this.configAllow, ...valid] : this.configAllow;
    return rules.filter((r) => !valid.includes(r));
  }

  decide(call: ApprovalCall): ApprovalDecision {
    return this.evaluate(call).decision;
  }

  evaluate(call: ApprovalCall): ApprovalVerdict {
    return judge.get().evaluate(this.state, call);
  }

  /**
   * "Always" from an approval prompt: these paths; for bash, each simple command's program and
   * first argument; for web_fetch, the host; for any other tool, that tool. Returns what the
   * grant covers, for the prompt.
   */
  grantAlways(call: ApprovalCall): string {
    return judge.get().grantAlways(this.state, call);
  }

  /** What answering `always` to this call would cover from now on (R-TOOL-2). */
  describeAlways(call: ApprovalCall): string {
    return judge.get().describeAlways(this.state, call);
  }

  /** `/yolo once`: the engine turns it on for the next turn and off when that turn ends. */
  setYoloOnce(on: boolean): void {
    this.state.yoloOnce = on;
  }

  setMode(mode: PermissionMode): void {
    this.state.mode = mode;
  }

  getMode(): PermissionMode {
    return this.state.mode;
  }

  /** Whether requests in the current mode offer this tool (mode-offer.ts). */
  offers(tool: Pick<Tool, "name" | "kind">): boolean {
    return offeredInMode(this.state.mode, tool);
  }

  /**
   * Whether a shell command may run outside the sandbox without asking: a grant (`always`)
   * covers it, judged as if there were no sandbox and no allow rule (R-SBX-3).
   */
  outsideGranted(call: ApprovalCall): boolean {
    return judge.get().outsideGranted(this.state, call);
  }

  /**
   * For web_fetch: the addresses the URL's host resolves to and the local or private one among
   * them, if any (§10). The call then connects only to these (no second lookup to rebind).
   */
  fetchAddress(call: ApprovalCall): Promise<ResolvedHost> {
    return judge.get().fetchAddress(call);
  }

  /** Folders no listing enters (grep, glob): TERN_HOME, whose reads ask (§10). */
  hiddenFolders(): string[] {
    return this.state.realTernHome ? [this.state.realTernHome] : [];
  }

  /** Where an edit call's paths really land (symlinks followed), for a check right before it runs. */
  realPaths(call: ApprovalCall): string[] {
    return realPathsIn(this.state.cwd, call.paths);
  }
}
