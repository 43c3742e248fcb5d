// A Claude Code user's repository for the workflow tests (R-WF): the checked-in fixture
// (test/fixtures/claude-workspace) copied into the test's workspace, made a git repository, with
// a HOME of its own so `~/.claude` is the test's, never the machine's.
import { cpSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect } from "vitest";
import type { E2E } from "./tools-support.js";

export const FIXTURE = resolve(import.meta.dirname, "../fixtures/claude-workspace");

export function userHome(e: E2E): string {
  const home = join(e.dirs.root, "user");
  mkdirSync(home, { recursive: true });
  return home;
}

/** The fixture as the workspace (a repository root); returns the env a run needs. */
export function claudeRepo(e: E2E): { HOME: string } {
  cpSync(FIXTURE, e.dirs.workspace, { recursive: true });
  mkdirSync(join(e.dirs.workspace, ".git"));
  return { HOME: userHome(e) };
}

/** Where each marker sits in `text`; every one must be there, in this order. */
export function expectInOrder(text: string, markers: string[]): void {
  const at = markers.map((m) => text.indexOf(m));
  for (const [i, m] of markers.entries()) expect(at[i], `${m} missing`).toBeGreaterThanOrEqual(0);
  expect(at).toEqual([...at].sort((a, b) => a - b));
}

/** The text of the last user message of an OpenAI request body. */
export function lastUserText(body: any): string {
  const users = body.messages.filter((m: any) => m.role === "user");
  const content = users.at(-1).content;
  return typeof content === "string" ? content : content.map((p: any) => p.text ?? "").join("\n");
}

export const notices = (events: any[]): string[] =>
  events.filter((ev) => ev.type === "notice").map((ev) => ev.text as string);
