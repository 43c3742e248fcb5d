// Claude Code's `permissions` (R-WF-5) from `~/.claude/settings.json`, `.claude/settings.json` and
// `.claude/settings.local.json`, mapped onto tern's rules (claude-rules.ts). Deny and ask rules
// apply from every file, also in an untrusted workspace (they only tighten); allow rules and
// `defaultMode` from a project file only when the workspace is trusted. A rule tern cannot map is
// one warning naming the file and the rule (for a deny rule, what is not enforced); nothing is
// dropped in silence. Each file's report says what was taken and what was not (`config check`).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type ClaudeRuleContext, mapClaudeRule } from "./claude-rules.js";
import type { PermissionMode } from "./types.js";

export interface ClaudeRuleReport {
  list: "allow" | "deny" | "ask";
  rule: string;
  /** tern's rules it became; empty when it was not taken. */
  tern: string[];
  /** Why it was not taken. */
  skipped?: string;
}

export interface ClaudeSettingsReport {
  file: string;
  rules: ClaudeRuleReport[];
  /** Other keys read: `defaultMode → auto-edit`, `additionalDirectories: not applied (…)`. */
  notes: string[];
}

export interface ClaudePermissions {
  allow: string[];
  deny: string[];
  ask: string[];
  mode?: { mode: PermissionMode; file: string };
  reports: ClaudeSettingsReport[];
  warnings: string[];
}

const MODES: Record<string, PermissionMode | undefined> = {
  default: "ask",
  acceptEdits: "auto-edit",
  plan: "plan",
  bypassPermissions: "yolo",
};

/** The settings files in Claude Code's order (user, project, local); later ones win `defaultMode`. */
export function claudeSettingsFiles(
  cwd: string,
  home: string | undefined,
): { file: string; project: boolean }[] {
  return [
    ...(home ? [{ file: join(home, ".claude", "settings.json"), project: false }] : []),
    { file: join(cwd, ".claude", "settings.json"), project: true },
    { file: join(cwd, ".claude", "settings.local.json"), project: true },
  ];
}

export function readClaudePermissions(opts: {
  cwd: string;
  home: string | undefined;
  trusted: boolean;
}): ClaudePermissions {
  const out: ClaudePermissions = { allow: [], deny: [], ask: [], reports: [], warnings: [] };
  for (const { file, project } of claudeSettingsFiles(opts.cwd, opts.home)) {
    const permissions = permissionsIn(file, out.warnings);
    if (permissions === undefined) continue;
    const report: ClaudeSettingsReport = { file, rules: [], notes: [] };
    out.reports.push(report);
    const ctx: ClaudeRuleContext = { cwd: opts.cwd, root: dirname(dirname(file)), home: opts.home };
    const loosens = project && !opts.trusted;
    for (const list of ["deny", "ask", "allow"] as const) {
      const rules = permissions[list];
      if (rules === undefined) continue;
      if (!Array.isArray(rules) || !rules.every((r) => typeof r === "string")) {
        out.warnings.push(`${file}: permissions.${list}: expected a list of rules; ignored`);
        continue;
      }
      for (const rule of rules as string[]) {
        if (list === "allow" && loosens) {
          report.rules.push({ list, rule, tern: [], skipped: "this workspace is not in trustedWorkspaces" });
          continue;
        }
        const mapped = mapClaudeRule(rule, ctx);
        if ("problem" in mapped) {
          report.rules.push({ list, rule, tern: [], skipped: mapped.problem });
          out.warnings.push(unmapped(file, list, rule, mapped.problem));
          continue;
        }
        report.rules.push({ list, rule, tern: mapped.rules });
        out[list].push(...mapped.rules.filter((r) => !out[list].includes(r)));
      }
    }
    if (loosens && permissions.allow !== undefined)
      out.warnings.push(`${file}: permissions.allow ignored: this workspace is not in trustedWorkspaces`);
    readMode(permissions.defaultMode, file, loosens, report, out);
    if (permissions.additionalDirectories !== undefined) {
      const why =
        "additionalDirectories not applied: tern asks before it reads or writes outside the workspace, naming the path";
      report.notes.push(why);
      out.warnings.push(`${file}: permissions.${why}`);
    }
  }
  return out;
}

function unmapped(file: string, list: string, rule: string, problem: string): string {
  const what =
    list === "deny"
      ? "NOT enforced by tern"
      : list === "ask"
        ? "tern does not ask for it by this rule"
        : "ignored";
  return `${file}: permissions.${list} rule ${JSON.stringify(rule)} ${what}: ${problem}`;
}

function readMode(
  value: unknown,
  file: string,
  loosens: boolean,
  report: ClaudeSettingsReport,
  out: ClaudePermissions,
): void {
  if (value === undefined) return;
  const mode = typeof value === "string" ? MODES[value] : undefined;
  if (mode === undefined) {
    const why = `defaultMode ${JSON.stringify(value)} not applied: tern's modes are default, acceptEdits, plan and bypassPermissions`;
    report.notes.push(why);
    out.warnings.push(`${file}: permissions.${why}`);
    return;
  }
  // `plan` is stricter than asking: a workspace may always choose it.
  if (loosens && mode !== "plan" && mode !== "ask") {
    report.notes.push(
      `defaultMode ${JSON.stringify(value)} not applied: this workspace is not in trustedWorkspaces`,
    );
    out.warnings.push(`${file}: permissions.defaultMode ignored: this workspace is not in trustedWorkspaces`);
    return;
  }
  report.notes.push(`defaultMode ${JSON.stringify(value)} → permissions.mode "${mode}"`);
  out.mode = { mode, file };
}

/** The `permissions` object of a settings file; undefined when there is none (or no readable file). */
function permissionsIn(file: string, warnings: string[]): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    // A missing file sets nothing; the hooks reader names an unreadable one.
    return undefined;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined; // the hooks reader names a file that is not JSON
  }
  const permissions = (json as { permissions?: unknown } | null)?.permissions;
  if (permissions === undefined) return undefined;
  if (typeof permissions !== "object" || permissions === null || Array.isArray(permissions)) {
    warnings.push(`${file}: permissions: expected an object; ignored`);
    return undefined;
  }
  return permissions as Record<string, unknown>;
}
