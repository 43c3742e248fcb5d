// Engine-level scaffolding: a real session (openSession, real record, real tools)
// against the fake provider, with hooks (approve, onLimit) a front end would supply.
import { afterEach, beforeEach } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import { resolveModel } from "../../src/config/resolve.js";
import type { Config } from "../../src/config/types.js";
import type { SessionHooks } from "../../src/engine/core.js";
import type { EngineEvent } from "../../src/engine/door/events.js";
import { openSession, type ResumeTarget } from "../../src/engine/open-session.js";
import type { Session } from "../../src/engine/session.js";
import type { TurnOutcome } from "../../src/engine/door/outcome.js";
import { FakeProvider } from "../support/fake-provider.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { Checkpointer } from "../../src/engine/undo/checkpoints.js";
import { coreOf } from "../../src/engine/core-of.js";

export interface Harness {
  dirs: TempDirs;
  provider: FakeProvider;
}

export interface TestSession {
  session: Session;
  events: EngineEvent[];
  prompt(text: string): Promise<TurnOutcome>;
}

export interface StartOptions {
  config?: (c: Config) => void;
  hooks?: Partial<SessionHooks>;
  resume?: ResumeTarget;
  /**
   * Git snapshots of the workspace around tool batches (undo, /diff). Off unless a test asks:
   * the shadow repository's first snapshot is ~0.3 s of git processes per session, which a test
   * of turns, records or requests does not look at.
   */
  checkpoints?: boolean;
  /**
   * With checkpoints: the workspace's first snapshot runs beside the batches above this many
   * files (the engine's bound is 20,000; tests of a "big" workspace lower it to keep it small).
   */
  backgroundFirstFiles?: number;
}

export function useHarness(): Harness & {
  start(opts?: StartOptions): Promise<TestSession>;
} {
  const h = {} as Harness;
  const opened: Session[] = [];
  beforeEach(async () => {
    h.dirs = makeTempDirs();
    h.provider = await FakeProvider.start();
  });
  afterEach(async () => {
    for (const s of opened.splice(0)) await s.close();
    await h.provider.close();
    h.dirs.cleanup();
  });
  const start = async (opts: StartOptions = {}): Promise<TestSession> => {
    const config = defaultConfig();
    config.model = "local/mock-1";
    config.retry.baseDelaySeconds = 0.01;
    config.checkpoints.enabled = opts.checkpoints ?? false;
    opts.config?.(config);
    const { model } = resolveModel(config, {}, { baseUrl: h.provider.baseUrl });
    const { session } = await openSession({
      home: h.dirs.home,
      cwd: h.dirs.workspace,
      config,
      model,
      resume: opts.resume,
      hooks: {
        approve: async (calls) => new Map(calls.map((c) => [c.id, "approved" as const])),
        ...opts.hooks,
      },
    });
    opened.push(session);
    if (opts.backgroundFirstFiles !== undefined) {
      const core = coreOf(session);
      core.checkpoints = new Checkpointer({
        home: h.dirs.home,
        cwd: h.dirs.workspace,
        sessionId: core.id,
        settings: core.settings.checkpoints,
        archive: core.fold.archive,
        commit: (record) => core.commit(record),
        notice: () => undefined,
        backgroundFirstFiles: opts.backgroundFirstFiles,
      });
    }
    const events: EngineEvent[] = [];
    session.subscribe((ev) => events.push(ev));
    return {
      session,
      events,
      prompt: (text) => session.send({ type: "prompt", content: [{ type: "text", text }] }),
    };
  };
  return Object.assign(h, { start });
}

/** The tool messages of a recorded OpenAI request, in the order they were sent. */
export function toolMessages(body: any): { id: string; content: string }[] {
  return body.messages
    .filter((m: any) => m.role === "tool")
    .map((m: any) => ({ id: m.tool_call_id, content: m.content }));
}

/**
 * Once the tool result `after` is in a request, the model recalls turn 1 round 1 and follows each
 * page's next offset to the last page, then answers; returns the pages as they arrive.
 */
export function pageThroughRecall(provider: FakeProvider, after: string): string[] {
  const pages: string[] = [];
  provider.setResponder((req) => {
    const newest = toolMessages(req.body).at(-1);
    if (newest?.id === after)
      return openaiToolCalls([{ id: "p0", name: "recall", args: { turn: 1, round: 1 } }]);
    if (!newest?.id.startsWith("p")) return undefined;
    pages.push(newest.content);
    const next = /"offset": (\d+)\} reads the next page\]$/.exec(newest.content);
    if (!next) return openaiText("read all pages");
    const offset = Number(next[1]);
    return openaiToolCalls([{ id: `p${pages.length}`, name: "recall", args: { turn: 1, round: 1, offset } }]);
  });
  return pages;
}

/** The `follow_up` events' changes as `change:text`, in order. */
export const followUpChanges = (events: EngineEvent[]): string[] =>
  events.flatMap((e) => (e.type === "follow_up" ? [`${e.change}:${e.follow_up?.text ?? ""}`] : []));

/** Resolves at the turn's first streamed text: the turn is running, mid-answer. */
export const firstDelta = (t: { session: { subscribe(l: (e: EngineEvent) => void): () => void } }) =>
  new Promise<void>((resolve) => {
    const off = t.session.subscribe((e) => {
      if (e.type === "text_delta") {
        off();
        resolve();
      }
    });
  });
