// How the approval policy judges a call (R-TOOL-2): deny and allow rules, session grants, the
// literal gate bash allow rules and grants pass (literal-line.ts), paths outside the workspace. Loaded with the first tool batch (approval.ts), so a
// run whose model calls no tool never compiles the shell reader and the deny tables.
import { describeRuleError } from "../../../config/rule-syntax.js";
import type { ApprovalCall, ApprovalVerdict, PolicyState } from "../approval-types.js";
import { domainMatches, fetchHost } from "../../builtin/web-fetch.js";
import { type ResolvedHost, resolveHost } from "../../builtin/web-fetch-address.js";
import { mcpRuleMatches } from "../../mcp/mcp-names.js";
import { realPathLoose, realPathsIn, resolvePath } from "../../paths.js";
import { readConcerns, writeConcerns } from "../write-concerns.js";
import {
  bashAllowMatches,
  bashDenyMatches,
  bashGrantPrefixes,
  bashLineCovered,
  grantText,
  mcpArgsMatch,
  parseRule,
  pathMatches,
  type Rule,
  toolNameMatches,
} from "../rules.js";
import { parseShell } from "../../shell/shell-parse.js";
import { readLiteralLine } from "../literal-line.js";
import { literalRedirectConcerns } from "../literal-redirects.js";
import { globToRegExp } from "../../../config/wildcard.js";
import { evaluatePlanning } from "../plan-mode.js";

/**
 * A policy's rules, parsed once per policy and again when its allow list is replaced (a custom
 * command's turn rules, R-WF-2); the texts were checked when they were set.
 */
const parsedRules = new WeakMap<PolicyState, { from: string[]; allow: Rule[]; deny: Rule[]; ask: Rule[] }>();

function rulesOf(state: PolicyState): { allow: Rule[]; deny: Rule[]; ask: Rule[] } {
  let rules = parsedRules.get(state);
  if (!rules || rules.from !== state.allow) {
    rules = {
      from: state.allow,
      allow: parseRules(state.allow, "allow"),
      deny: parseRules(state.deny, "deny"),
      ask: parseRules(state.ask ?? [], "ask"),
    };
    parsedRules.set(state, rules);
  }
  return rules;
}

function parseRules(texts: string[], which: string): Rule[] {
  return texts.map((t) => {
    const rule = parseRule(t);
    if (!rule) throw new Error(`permissions.${which}: ${describeRuleError(t)}`);
    return rule;
  });
}

function asBashCall(call: ApprovalCall): ApprovalCall {
  const text = (call.args as { text?: unknown } | null)?.text;
  return { ...call, name: "bash", args: { command: typeof text === "string" ? text : "" } };
}

function commandOf(args: unknown): string | null {
  const c = (args as { command?: unknown } | null)?.command;
  return typeof c === "string" ? c : null;
}

export function evaluate(state: PolicyState, given: ApprovalCall): ApprovalVerdict {
  // Input to a job's shell runs code: judged as that text would be as a `bash` command (R-JOB-1).
  const call = given.name === "job_input" ? asBashCall(given) : given;
  const { allow, deny, ask } = rulesOf(state);
  const denied = deny.find((r) => ruleMatches(state, r, call, "deny"));
  if (denied) return { decision: "deny", rule: denied.text };
  if (state.mode === "plan") return evaluatePlanning(given, state.planSandbox);
  // Claude Code's ask rules (R-WF-5) ask in every mode, matched as broadly as a deny rule.
  const asked = ask.find((r) => ruleMatches(state, r, call, "deny"));
  if (asked) return { decision: "ask", reason: `ask rule ${asked.text}` };
  if (state.mode === "yolo" || state.yoloOnce) return { decision: "allow" };

  if (call.kind === "fetch" && call.privateAddress && !isGranted(state, call)) {
    const host = fetchHost((call.args as { url?: unknown } | undefined)?.url);
    return {
      decision: "ask",
      reason: `fetches ${host}, a local or private address (${call.privateAddress})`,
    };
  }
  if (call.kind === "edit") {
    // Outside the workspace or into .git/ / .tern/: only an approval naming the path (§10).
    const concerns = writeConcerns(state, call);
    if (concerns.length) {
      const granted = concerns.every((c) => state.pathGrants.has(grantKey(call.name, c.real)));
      return granted
        ? { decision: "allow" }
        : { decision: "ask", reason: concerns.map((c) => c.reason).join("; ") };
    }
  }
  if (call.kind === "read") {
    const concerns = readConcerns(state, call);
    const granted = concerns.every((c) => state.pathGrants.has(grantKey(call.name, c.real)));
    return granted
      ? { decision: "allow" }
      : { decision: "ask", reason: concerns.map((c) => c.reason).join("; ") };
  }
  if (call.kind === "shell" && state.sandboxedShell) return { decision: "allow" };
  if (call.kind === "shell") return evaluateShell(state, allow, call);
  if (isGranted(state, call)) return { decision: "allow" };
  if (allow.some((r) => ruleMatches(state, r, call, "allow"))) return { decision: "allow" };
  if (call.kind === "edit" && state.mode === "auto-edit") return { decision: "allow" };
  // Reading the web asks only in `ask`: it changes nothing here, but it sends the URL out.
  if (call.kind === "fetch" && state.mode === "auto-edit") return { decision: "allow" };
  if (call.mcp?.readOnly && state.mode === "auto-edit") return { decision: "allow" };
  return { decision: "ask" };
}

/** See ApprovalPolicy.outsideGranted. */
export function outsideGranted(state: PolicyState, call: ApprovalCall): boolean {
  if (state.mode === "yolo" || state.yoloOnce) return true;
  return evaluateShell(state, [], call).decision === "allow";
}

/** See ApprovalPolicy.fetchAddress. */
export async function fetchAddress(call: ApprovalCall): Promise<ResolvedHost> {
  const host = fetchHost((call.args as { url?: unknown } | undefined)?.url);
  return host ? resolveHost(host) : { addresses: [] };
}

/** See ApprovalPolicy.grantAlways. */
export function grantAlways(state: PolicyState, call: ApprovalCall): string {
  const what = describeAlways(state, call);
  if (call.kind === "fetch") {
    const host = fetchHost((call.args as { url?: unknown } | undefined)?.url);
    if (host) state.toolGrants.add(hostGrant(call.name, host));
    return what;
  }
  if (call.kind === "shell") {
    for (const prefix of bashGrantPrefixes(commandOf(call.args) ?? "") ?? []) state.bashGrants.add(prefix);
    return what;
  }
  const paths = realPaths(state, call);
  if (paths.length === 0) state.toolGrants.add(call.name);
  for (const p of paths) state.pathGrants.add(grantKey(call.name, p));
  return what;
}

/** See ApprovalPolicy.describeAlways. */
export function describeAlways(state: PolicyState, call: ApprovalCall): string {
  if (call.kind === "fetch") {
    const host = fetchHost((call.args as { url?: unknown } | undefined)?.url);
    return host
      ? `${call.name} of ${host} for this session`
      : "this call only (the URL names no host to grant)";
  }
  if (call.kind === "shell") {
    const prefixes = bashGrantPrefixes(commandOf(call.args) ?? "");
    return prefixes
      ? `${call.name} commands starting with ${prefixes.map((p) => `\`${grantText(p)}\``).join(", ")} for this session`
      : "this call only (this command cannot carry a grant)";
  }
  const paths = realPaths(state, call);
  if (paths.length === 0) return `every ${call.name} call for this session`;
  return `${call.name} on ${paths.join(", ")} for this session`;
}

function realPaths(state: PolicyState, call: ApprovalCall): string[] {
  return realPathsIn(state.cwd, call.paths);
}

function evaluateShell(state: PolicyState, allow: Rule[], call: ApprovalCall): ApprovalVerdict {
  const command = commandOf(call.args);
  if (command === null) return { decision: "ask" };
  const parsed = parseShell(command);
  if (parsed.errors.length)
    return { decision: "ask", reason: `cannot be read reliably as bash (${parsed.errors[0]})` };
  const rules = allow.filter((r) => toolNameMatches(r, call.name, call.kind));
  // A bare `bash` rule names every program, not every line: it covers a plainly literal line
  // with any command words, and nothing else (R-TOOL-2).
  const anyProgram = state.toolGrants.has(call.name) || rules.some((r) => r.pattern === null);
  if (!anyProgram && rules.length === 0 && state.bashGrants.size === 0) return { decision: "ask" };
  // Patterns and grants cover a line only when it is plainly literal and each of its simple
  // commands matches one of them.
  const line = readLiteralLine(command);
  if ("refused" in line)
    return {
      decision: "ask",
      reason: `allow rules cover only plainly literal commands; this has ${line.refused}`,
    };
  const patterns = anyProgram ? ["*"] : rules.map((r) => r.pattern!);
  if (!bashLineCovered(line, patterns, state.bashGrants)) return { decision: "ask" };
  const concerns = literalRedirectConcerns(line.commands, state.cwd, state.realCwd, state.realTernHome);
  return concerns.length ? { decision: "ask", reason: concerns.join("; ") } : { decision: "allow" };
}

function absPaths(state: PolicyState, call: ApprovalCall): string[] {
  return call.paths.map((p) => resolvePath(state.cwd, p));
}

function isGranted(state: PolicyState, call: ApprovalCall): boolean {
  if (call.kind === "fetch") {
    const host = fetchHost((call.args as { url?: unknown } | undefined)?.url);
    return host !== undefined && state.toolGrants.has(hostGrant(call.name, host));
  }
  if (state.toolGrants.has(call.name)) return true;
  const paths = realPaths(state, call);
  return paths.length > 0 && paths.every((p) => state.pathGrants.has(grantKey(call.name, p)));
}

function ruleMatches(state: PolicyState, rule: Rule, call: ApprovalCall, which: "allow" | "deny"): boolean {
  if (call.mcp) return mcpRuleMatches(rule.tool, rule.pattern, call.name, call.mcp, call.args, which);
  if (!toolNameMatches(rule, call.name, call.kind)) return false;
  if (rule.pattern === null) return true;
  // `task(explore)`: Claude Code's `Task(agent)` names the sub-agent (R-WF-5).
  if (call.name === "task")
    return globToRegExp(rule.pattern).test(String((call.args as { agent?: unknown })?.agent ?? ""));
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
  const abs = absPaths(state, call);
  if (abs.length === 0) return false;
  // Allow judges where the write really lands; deny also sees the path as the model wrote it.
  const real = (p: string) => pathMatches(pattern, realPathLoose(p), state.realCwd);
  if (which === "allow") return abs.every(real);
  return abs.some((p) => real(p) || pathMatches(pattern, p, state.cwd));
}

/** "Always" for web_fetch covers one host, never the whole web. */
function hostGrant(tool: string, host: string): string {
  return `${tool}\u0000host:${host}`;
}

function grantKey(tool: string, absPath: string): string {
  return `${tool}\u0000${absPath}`;
}
