// Sub-agent e2e scaffolding: the fake provider answers each session by its first user message (a
// parent's prompt or a child's task prompt), so children running side by side get their own
// scripts; and readers for every session record under TERN_HOME.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeProvider, RecordedRequest, ScriptedResponse } from "../support/fake-provider.js";

/** The text of a request's first user message (who is asking). */
export function firstUserText(body: any): string {
  const first = body?.messages?.find((m: any) => m.role === "user");
  if (!first) return "";
  return typeof first.content === "string"
    ? first.content
    : first.content.map((p: any) => p.text ?? "").join("");
}

export interface Arrival {
  asker: string;
  at: number;
  request: RecordedRequest;
}

/**
 * Scripts per asker: each request gets the next response of the session whose first user message
 * it carries. Every arrival is kept with its time.
 */
export function scriptBySession(
  e: { provider: FakeProvider },
  scripts: Record<string, ScriptedResponse[]>,
): Arrival[] {
  const arrivals: Arrival[] = [];
  e.provider.setResponder((request) => {
    const asker = firstUserText(request.body);
    arrivals.push({ asker, at: Date.now(), request });
    const next = scripts[asker]?.shift();
    if (!next) throw new Error(`no script left for '${asker}'`);
    return next;
  });
  return arrivals;
}

export interface SessionRecord {
  id: string;
  dir: string;
  lines: any[];
}

/** Every session record of the workspace, by id. */
export function sessionRecords(e: { dirs: { home: string } }): Map<string, SessionRecord> {
  const root = join(e.dirs.home, "sessions");
  const out = new Map<string, SessionRecord>();
  for (const ws of readdirSync(root))
    for (const id of readdirSync(join(root, ws))) {
      const dir = join(root, ws, id);
      const text = readFileSync(join(dir, "record.jsonl"), "utf8");
      out.set(id, {
        id,
        dir,
        lines: text
          .split("\n")
          .filter((l) => l.trim())
          .map((l) => JSON.parse(l)),
      });
    }
  return out;
}

/** The one session that no parent started, and the children (with their link) of a session. */
export function splitSessions(records: Map<string, SessionRecord>): {
  parent: SessionRecord;
  children: SessionRecord[];
} {
  const all = [...records.values()];
  const parent = all.find((r) => !r.lines[0].parent);
  if (!parent) throw new Error("no top-level session");
  return { parent, children: all.filter((r) => r.lines[0].parent?.agent) };
}

/** The names of the tools a request offered. */
export function offeredTools(body: any): string[] {
  return (body.tools ?? []).map((t: any) => t.function?.name ?? t.name);
}
