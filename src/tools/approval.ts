// The approval policy of R-TOOL-2 / R-CFG-2: modes, allow/deny rules, session grants and
// `/yolo once`. Deny wins over everything; writes outside the workspace, or into its .git/
// and .tern/, need an approval that names the (symlink-resolved) path in every mode but yolo.
import type { PermissionMode } from "../config/types.js";
import { statSync } from "node:fs";
import { relative, sep } from "node:path";
import { describeRuleError } from "../config/rule-syntax.js";
import { redirectConcerns } from "./bash-redirects.js";
import { domainMatches, fetchHost } from "./builtin/web-fetch.js";
import { type McpToolInfo, mcpRuleMatches } from "./mcp-names.js";
import { isInside, isProtectedPath, realPathLoose, resolvePath } from "./paths.js";
import {
  bashAllowMatches,
  bashDenyMatches,
  bashGrantPrefixes,
  bashLineCovered,
  mcpArgsMatch,
  parseRule,
  pathMatches,
  type Rule,
  toolNameMatches,
} from "./rules.js";
import { parseShell } from "./shell-parse.js";
import type { ToolKind } from "./types.js";

export type ApprovalDecision = "allow" | "deny" | "ask";

export interface ApprovalCall {
  name: string;
  args: unknown;
  kind: ToolKind;
  /** As the tool reported them (workspace-relative or absolute). */
  paths: string[];
  /** Set for MCP tools: rules match their other names and their arguments (mcp-names.ts). */
  mcp?: McpToolInfo;
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
    // Config loading rejects bad rules first (R-CFG-1); this guards direct construction.
    if (!rule) throw new Error(`permissions.${which}: ${describeRuleError(t)}`);
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
  private readonly bashGrants = new Set<string>();

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
      // Outside the workspace or into .git/ / .tern/: only an approval naming the path (§10).
      const concerns = this.editConcerns(call);
      if (concerns.length) {
        const granted = concerns.every((c) => this.pathGrants.has(grantKey(call.name, c.real)));
        return granted
          ? { decision: "allow" }
          : { decision: "ask", reason: concerns.map((c) => c.reason).join("; ") };
      }
    }
    if (call.kind === "read") return { decision: "allow" };
    if (call.kind === "shell" && this.sandboxedShell) return { decision: "allow" };
    if (call.kind === "shell") return this.evaluateShell(call);
    if (this.isGranted(call)) return { decision: "allow" };
    if (this.allow.some((r) => this.ruleMatches(r, call, "allow"))) return { decision: "allow" };
    if (call.kind === "edit" && this.mode === "auto-edit") return { decision: "allow" };
    // Reading the web asks only in `ask`: it changes nothing here, but it sends the URL out.
    if (call.kind === "fetch" && this.mode === "auto-edit") return { decision: "allow" };
    if (call.mcp?.readOnly && this.mode === "auto-edit") return { decision: "allow" };
    return { decision: "ask" };
  }

  /**
   * "Always" from an approval prompt: these paths; for bash, each simple command's program and
   * first argument; for web_fetch, the host; for any other tool, that tool. Returns what the
   * grant covers, for the prompt.
   */
  grantAlways(call: ApprovalCall): string {
    const what = this.describeAlways(call);
    if (call.kind === "fetch") {
      const host = fetchHost((call.args as { url?: unknown } | undefined)?.url);
      if (host) this.toolGrants.add(hostGrant(call.name, host));
      return what;
    }
    if (call.kind === "shell") {
      for (const prefix of bashGrantPrefixes(commandOf(call.args) ?? "") ?? []) this.bashGrants.add(prefix);
      return what;
    }
    const paths = this.realPaths(call);
    if (paths.length === 0) this.toolGrants.add(call.name);
    for (const p of paths) this.pathGrants.add(grantKey(call.name, p));
    return what;
  }

  /** What answering `always` to this call would cover from now on (R-TOOL-2). */
  describeAlways(call: ApprovalCall): string {
    if (call.kind === "fetch") {
      const host = fetchHost((call.args as { url?: unknown } | undefined)?.url);
      return host ? `${call.name} of ${host} for this session` : "nothing more: it approves this call once";
    }
    if (call.kind === "shell") {
      const prefixes = bashGrantPrefixes(commandOf(call.args) ?? "");
      return prefixes
        ? `${call.name} commands starting with ${prefixes.map((p) => `\`${p}\``).join(", ")} for this session`
        : "nothing more: this command cannot carry a grant, so always approves it once";
    }
    const paths = this.realPaths(call);
    if (paths.length === 0) return `every ${call.name} call for this session`;
    return `${call.name} on ${paths.join(", ")} for this session`;
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

  /** Where an edit call's paths really land (symlinks followed), for a check right before it runs. */
  realPaths(call: ApprovalCall): string[] {
    return this.absPaths(call).map(realPathLoose);
  }

  private evaluateShell(call: ApprovalCall): ApprovalVerdict {
    const command = commandOf(call.args);
    if (command === null) return { decision: "ask" };
    const parsed = parseShell(command);
    if (parsed.errors.length)
      return { decision: "ask", reason: `cannot be read reliably as bash (${parsed.errors[0]})` };
    // A bare `bash` rule or grant covers every call; patterns and prefixes cover a line only
    // when each of its simple commands matches one of them (R-TOOL-2).
    const rules = this.allow.filter((r) => toolNameMatches(r, call.name, call.kind));
    const covered =
      this.toolGrants.has(call.name) ||
      rules.some((r) => r.pattern === null) ||
      bashLineCovered(
        parsed,
        rules.map((r) => r.pattern!),
        this.bashGrants,
      );
    if (!covered) return { decision: "ask" };
    const concerns = redirectConcerns(parsed, this.cwd, this.realCwd);
    return concerns.length ? { decision: "ask", reason: concerns.join("; ") } : { decision: "allow" };
  }

  private editConcerns(call: ApprovalCall): { real: string; reason: string }[] {
    const out: { real: string; reason: string }[] = [];
    this.absPaths(call).forEach((abs) => {
      const real = realPathLoose(abs);
      const via = real === abs ? "" : ` (through a symlink: ${abs})`;
      if (!isInside(this.realCwd, real))
        out.push({ real, reason: `writes outside the workspace: ${real}${via}` });
      else if (isProtectedPath(this.realCwd, real))
        out.push({ real, reason: `writes into ${protectedName(this.realCwd, real)}: ${real}${via}` });
      // A hard link shares its content with another name, possibly outside the workspace.
      else if (linkCount(real) > 1)
        out.push({ real, reason: `writes a file with several hard links (it may be outside too): ${real}` });
    });
    return out;
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
    const paths = this.realPaths(call);
    return paths.length > 0 && paths.every((p) => this.pathGrants.has(grantKey(call.name, p)));
  }

  private ruleMatches(rule: Rule, call: ApprovalCall, which: "allow" | "deny"): boolean {
    if (call.mcp) return mcpRuleMatches(rule.tool, rule.pattern, call.name, call.mcp, call.args, which);
    if (!toolNameMatches(rule, call.name, call.kind)) return false;
    if (rule.pattern === null) return true;
    if (call.kind === "fetch") {
      // `web_fetch(docs.python.org)`: rules name domains, matched against the URL's host.
      const host = fetchHost((call.args as { url?: unknown } | undefined)?.url);
      return host !== undefined && domainMatches(rule.pattern, host);
    }
    const pattern = rule.pattern;
    if (call.kind === "shell") {
      const command = commandOf(call.args);
      if (command === null) return false;
      return which === "allow" ? bashAllowMatches(pattern, command) : bashDenyMatches(pattern, command);
    }
    if (call.kind === "mcp") return mcpArgsMatch(pattern, call.args, which);
    const abs = this.absPaths(call);
    if (abs.length === 0) return false;
    // Allow judges where the write really lands; deny also sees the path as the model wrote it.
    const real = (p: string) => pathMatches(pattern, realPathLoose(p), this.realCwd);
    if (which === "allow") return abs.every(real);
    return abs.some((p) => real(p) || pathMatches(pattern, p, this.cwd));
  }
}

/** "Always" for web_fetch covers one host, never the whole web. */
function hostGrant(tool: string, host: string): string {
  return `${tool}\u0000host:${host}`;
}

function linkCount(path: string): number {
  try {
    const st = statSync(path);
    return st.isFile() ? st.nlink : 1;
  } catch {
    return 1;
  }
}

function protectedName(realCwd: string, real: string): string {
  const segs = relative(realCwd, real).split(sep);
  const hit = segs.find((s) => [".git", ".tern"].includes(s.toLowerCase()));
  return `the workspace's ${hit ?? ".git"}/ (asks in every mode but yolo)`;
}

function grantKey(tool: string, absPath: string): string {
  return `${tool}\u0000${absPath}`;
}
