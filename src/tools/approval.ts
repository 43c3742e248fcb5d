// The approval policy of R-TOOL-2 / R-CFG-2: modes, allow/deny rules, session grants and
// `/yolo once`. Deny wins over everything; writes outside the workspace need an approval
// that names the path in every mode but yolo.
import type { PermissionMode } from "../config/types.js";
import { domainMatches, fetchHost } from "./builtin/web-fetch.js";
import { isInside, realPathLoose, resolvePath } from "./paths.js";
import {
  bashAllowMatches,
  bashDenyMatches,
  parseRule,
  pathMatches,
  type Rule,
  toolNameMatches,
} from "./rules.js";
import type { ToolKind } from "./types.js";

export type ApprovalDecision = "allow" | "deny" | "ask";

export interface ApprovalCall {
  name: string;
  args: unknown;
  kind: ToolKind;
  /** As the tool reported them (workspace-relative or absolute). */
  paths: string[];
}

export interface ApprovalVerdict {
  decision: ApprovalDecision;
  /** The deny rule that matched, for the result text. */
  rule?: string;
  /** Why the call asks although a rule or mode would allow it. */
  reason?: string;
}

export interface ApprovalPolicyOptions {
  mode: PermissionMode;
  allow: string[];
  deny: string[];
  cwd: string;
  /** The shell runs inside an OS sandbox (R-SBX-3): it needs no asking; deny rules still apply. */
  sandboxedShell?: boolean;
}

function parseRules(texts: string[], which: string): Rule[] {
  return texts.map((t) => {
    const rule = parseRule(t);
    if (!rule)
      throw new Error(
        `invalid permissions.${which} rule: ${JSON.stringify(t)} (expected tool or tool(pattern))`,
      );
    return rule;
  });
}

function commandOf(args: unknown): string | null {
  const c = (args as { command?: unknown } | null)?.command;
  return typeof c === "string" ? c : null;
}

export class ApprovalPolicy {
  private mode: PermissionMode;
  private readonly allow: Rule[];
  private readonly deny: Rule[];
  private readonly cwd: string;
  private readonly realCwd: string;
  private yoloOnce = false;
  private readonly sandboxedShell: boolean;
  private readonly toolGrants = new Set<string>();
  private readonly pathGrants = new Set<string>();

  constructor(opts: ApprovalPolicyOptions) {
    this.mode = opts.mode;
    this.allow = parseRules(opts.allow, "allow");
    this.deny = parseRules(opts.deny, "deny");
    this.cwd = opts.cwd;
    this.realCwd = realPathLoose(opts.cwd);
    this.sandboxedShell = opts.sandboxedShell === true;
  }

  decide(call: ApprovalCall): ApprovalDecision {
    return this.evaluate(call).decision;
  }

  evaluate(call: ApprovalCall): ApprovalVerdict {
    const denied = this.deny.find((r) => this.ruleMatches(r, call, "deny"));
    if (denied) return { decision: "deny", rule: denied.text };
    if (this.mode === "yolo" || this.yoloOnce) return { decision: "allow" };

    if (call.kind === "edit") {
      const outside = this.absPaths(call).filter((p) => !isInside(this.realCwd, realPathLoose(p)));
      if (outside.length) {
        const granted = outside.every((p) => this.pathGrants.has(grantKey(call.name, p)));
        return granted
          ? { decision: "allow" }
          : { decision: "ask", reason: `writes outside the workspace: ${outside.join(", ")}` };
      }
    }
    if (call.kind === "read") return { decision: "allow" };
    if (call.kind === "shell" && this.sandboxedShell) return { decision: "allow" };
    if (this.isGranted(call)) return { decision: "allow" };
    if (this.allow.some((r) => this.ruleMatches(r, call, "allow"))) return { decision: "allow" };
    if (call.kind === "edit" && this.mode === "auto-edit") return { decision: "allow" };
    // Reading the web asks only in `ask`: it changes nothing here, but it sends the URL out.
    if (call.kind === "fetch" && this.mode === "auto-edit") return { decision: "allow" };
    return { decision: "ask" };
  }

  /** "Always" from an approval prompt: this tool for these paths, or the tool itself when it names none. */
  grantAlways(call: ApprovalCall): void {
    if (call.kind === "fetch") {
      const host = fetchHost((call.args as { url?: unknown } | undefined)?.url);
      if (host) this.toolGrants.add(hostGrant(call.name, host));
      return;
    }
    const paths = this.absPaths(call);
    if (paths.length === 0) this.toolGrants.add(call.name);
    for (const p of paths) this.pathGrants.add(grantKey(call.name, p));
  }

  /** `/yolo once`: the engine turns it on for the next turn and off when that turn ends. */
  setYoloOnce(on: boolean): void {
    this.yoloOnce = on;
  }

  setMode(mode: PermissionMode): void {
    this.mode = mode;
  }

  getMode(): PermissionMode {
    return this.mode;
  }

  private absPaths(call: ApprovalCall): string[] {
    return call.paths.map((p) => resolvePath(this.cwd, p));
  }

  private isGranted(call: ApprovalCall): boolean {
    if (call.kind === "fetch") {
      const host = fetchHost((call.args as { url?: unknown } | undefined)?.url);
      return host !== undefined && this.toolGrants.has(hostGrant(call.name, host));
    }
    if (this.toolGrants.has(call.name)) return true;
    const paths = this.absPaths(call);
    return paths.length > 0 && paths.every((p) => this.pathGrants.has(grantKey(call.name, p)));
  }

  private ruleMatches(rule: Rule, call: ApprovalCall, which: "allow" | "deny"): boolean {
    if (!toolNameMatches(rule, call.name)) return false;
    if (rule.pattern === null) return true;
    if (call.kind === "fetch") {
      // `web_fetch(docs.python.org)`: rules name domains, matched against the URL's host.
      const host = fetchHost((call.args as { url?: unknown } | undefined)?.url);
      return host !== undefined && domainMatches(rule.pattern, host);
    }
    const command = call.kind === "shell" ? commandOf(call.args) : null;
    if (command !== null) {
      return which === "allow"
        ? bashAllowMatches(rule.pattern, command)
        : bashDenyMatches(rule.pattern, command);
    }
    const paths = this.absPaths(call);
    if (paths.length === 0) return false;
    const pattern = rule.pattern;
    const match = (p: string) =>
      pathMatches(pattern, p, this.cwd) || pathMatches(pattern, realPathLoose(p), this.realCwd);
    return which === "allow" ? paths.every(match) : paths.some(match);
  }
}

/** "Always" for web_fetch covers one host, never the whole web. */
function hostGrant(tool: string, host: string): string {
  return `${tool}\u0000host:${host}`;
}

function grantKey(tool: string, absPath: string): string {
  return `${tool}\u0000${absPath}`;
}
