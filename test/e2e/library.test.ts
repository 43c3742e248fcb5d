// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config values name ${VAR} literally
// The library API as a program uses it: `import { openSession } from "tern"` (the package's
// `exports`, i.e. the built dist/lib entry and its .d.ts), a session opened in-process against
// the fake provider, commands in, events out, queries, and the same record and ledger as the CLI.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { recordLines, useE2E } from "./tools-support.js";

const e = useE2E();
const env = () => ({ TERN_LOCAL_PROBE_PORTS: "", OPENAI_API_KEY: "sk-test-key" });

describe("library API", () => {
  it("the package exports openSession with its .d.ts", async () => {
    const root = join(import.meta.dirname, "../..");
    expect(existsSync(join(root, "dist/lib/types/lib/index.d.ts"))).toBe(true);
    const lib = await import("tern");
    expect(typeof lib.openSession).toBe("function");
  });

  it("opens a session in-process: events, outcome, queries, approval hook, record and ledger", async () => {
    const { openSession } = await import("tern");
    e.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "echo hi" } }]),
      openaiText("said hi"),
    );
    const asked: string[] = [];
    const { session, resumed, model } = await openSession({
      cwd: e.dirs.workspace,
      home: e.dirs.home,
      model: "openai/mock-1",
      baseUrl: e.provider.baseUrl,
      env: env(),
      hooks: {
        approve: async (calls) => {
          for (const c of calls) asked.push(c.name);
          return new Map(calls.map((c) => [c.id, "approved" as const]));
        },
      },
    });
    expect(resumed).toBe(false);
    const types: string[] = [];
    const off = session.subscribe((event) => types.push(event.type));
    const outcome = await session.send({ type: "prompt", content: [{ type: "text", text: "say hi" }] });
    off();
    expect(outcome).toMatchObject({ stopReason: "completed", finalText: "said hi", turn: 1 });
    expect(asked).toEqual(["bash"]);
    expect(types).toEqual(
      expect.arrayContaining(["turn_start", "tool_call", "approval", "tool_result", "turn_end"]),
    );
    expect(session.status()).toMatchObject({ id: session.id, mode: "ask", lastTurn: 1 });
    // SPEC §10: no query returns a key (the session still sends it: the turn above was answered).
    expect(session.status().model.endpoint.apiKey).toBeUndefined();
    expect(JSON.stringify(session.status())).not.toContain("sk-test-key");
    expect(JSON.stringify(model)).not.toContain("sk-test-key");
    expect(e.provider.requests[0].headers.authorization).toBe("Bearer sk-test-key");
    expect(session.transcript().some((l) => l.type === "turn_end")).toBe(true);
    await session.close();
    expect(recordLines(e).find((l) => l.type === "tool_result")).toMatchObject({ id: "c1", outcome: "ok" });
    const metrics = await e.run(["metrics", "--json"]);
    expect(metrics.stdout).toContain(session.id);
  });

  it("queues a follow-up like the terminal: it joins the running turn after the tool batch", async () => {
    const { openSession } = await import("tern");
    e.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "sleep 0.3; echo slow" } }]),
      openaiText("saw both"),
    );
    const { session } = await openSession({
      cwd: e.dirs.workspace,
      home: e.dirs.home,
      model: "openai/mock-1",
      baseUrl: e.provider.baseUrl,
      env: env(),
      hooks: { approve: async (calls) => new Map(calls.map((c) => [c.id, "approved" as const])) },
    });
    const changes: string[] = [];
    let followUp: Promise<unknown> | undefined;
    session.subscribe((event) => {
      if (event.type === "follow_up") changes.push(`${event.change}:${event.queued.length}`);
      if (event.type === "tool_call") {
        // The call presents itself (its tool's title, kind and preview).
        expect(event.presentation).toMatchObject({ title: "sleep 0.3; echo slow", kind: "execute" });
        followUp = session.followUp([{ type: "text", text: "also B" }]).outcome;
      }
    });
    const outcome = await session.send({ type: "prompt", content: [{ type: "text", text: "A" }] });
    expect(await followUp).toBe(outcome);
    expect(changes).toEqual(["queued:1", "joined:0"]);
    const users = e.provider.requests[1].body.messages.filter((m: any) => m.role === "user");
    expect(users.map((m: any) => m.content)).toEqual(["A", "also B"]);
    await session.close();
  });

  it("resumes a session by id and denies calls needing approval when no hook is given", async () => {
    const { openSession } = await import("tern");
    e.provider.enqueue(
      openaiText("first"),
      openaiToolCalls([{ id: "c2", name: "bash", args: { command: "echo x" } }]),
      openaiText("denied then"),
    );
    const opts = {
      cwd: e.dirs.workspace,
      home: e.dirs.home,
      model: "openai/mock-1",
      baseUrl: e.provider.baseUrl,
      env: env(),
    };
    const first = await openSession(opts);
    await first.session.send({ type: "prompt", content: [{ type: "text", text: "one" }] });
    await first.session.close();
    const again = await openSession({ ...opts, resume: first.session.id });
    expect(again.resumed).toBe(true);
    const outcome = await again.session.send({ type: "prompt", content: [{ type: "text", text: "two" }] });
    expect(outcome.turn).toBe(2);
    await again.session.close();
    expect(recordLines(e).find((l) => l.type === "tool_result")).toMatchObject({
      id: "c2",
      outcome: "denied",
    });
  });

  it("a key given in `env` is never in an event or the record, whichever way it comes back", async () => {
    const { openSession } = await import("tern");
    const key = "sk-lib-only-key-9f8e7d6c";
    e.provider.enqueue(
      openaiToolCalls([{ id: "k1", name: "bash", args: { command: `echo ${key}` } }]),
      openaiText(`the key is ${key}`),
    );
    const { session } = await openSession({
      cwd: e.dirs.workspace,
      home: e.dirs.home,
      model: "openai/mock-1",
      baseUrl: e.provider.baseUrl,
      env: { TERN_LOCAL_PROBE_PORTS: "", OPENAI_API_KEY: key },
      hooks: { approve: async (calls) => new Map(calls.map((c) => [c.id, "approved" as const])) },
    });
    const events: unknown[] = [];
    session.subscribe((event) => events.push(event));
    const outcome = await session.send({ type: "prompt", content: [{ type: "text", text: "show it" }] });
    await session.close();
    // The provider did get the key: it is the one used.
    expect(e.provider.requests[0].headers.authorization).toBe(`Bearer ${key}`);
    expect(JSON.stringify(events)).not.toContain(key);
    expect(JSON.stringify(events)).toContain("[redacted]");
    expect(JSON.stringify(outcome)).not.toContain(key);
    expect(JSON.stringify(recordLines(e))).not.toContain(key);
  });

  it("opening fails with typed one-line errors; close() releases the session for the next opener", async () => {
    const lib = await import("tern");
    const opts = {
      cwd: e.dirs.workspace,
      home: e.dirs.home,
      model: "openai/mock-1",
      baseUrl: e.provider.baseUrl,
      env: env(),
    };
    const unknown = await lib
      .openSession({ ...opts, resume: "no-such-session" })
      .catch((err: unknown) => err);
    expect(unknown).toBeInstanceOf(lib.SessionNotFoundError);
    expect(unknown).toMatchObject({
      name: "SessionNotFoundError",
      message: expect.stringContaining("no-such-session"),
    });
    const missing = join(e.dirs.workspace, "not-here");
    const noCwd = await lib.openSession({ ...opts, cwd: missing }).catch((err: unknown) => err);
    expect(noCwd).toBeInstanceOf(lib.ConfigError);
    expect((noCwd as Error).message).toBe(`cwd: '${missing}' is not an existing folder`);
    expect(existsSync(missing)).toBe(false);
    const badModel = await lib.openSession({ ...opts, model: "no-slash" }).catch((err: unknown) => err);
    expect(badModel).toBeInstanceOf(lib.ConfigError);

    const first = await lib.openSession(opts);
    const second = await lib.openSession({ ...opts, resume: first.session.id }).catch((err: unknown) => err);
    expect(second).toBeInstanceOf(lib.SessionLockedError);
    for (const err of [unknown, noCwd, badModel, second]) expect((err as Error).message).not.toContain("\n");
    await first.session.close();
    const again = await lib.openSession({ ...opts, resume: first.session.id });
    expect(again.resumed).toBe(true);
    await again.session.close();
  });

  it("tool sets take their variables from the env the program passes", async () => {
    const { openSession } = await import("tern");
    const server = join(import.meta.dirname, "..", "tools", "fixtures", "mcp-server.mjs");
    e.provider.enqueue(
      openaiToolCalls([{ id: "m1", name: "fx__echo", args: { text: "hi" } }]),
      openaiText("ok"),
    );
    const { session } = await openSession({
      cwd: e.dirs.workspace,
      home: e.dirs.home,
      model: "openai/mock-1",
      baseUrl: e.provider.baseUrl,
      env: { ...env(), LIB_SUFFIX_VAR: " (from the program)" },
      toolSets: [
        {
          name: "fx",
          command: process.execPath,
          args: [server],
          env: { FIXTURE_SUFFIX: "${LIB_SUFFIX_VAR}" },
        },
      ],
      hooks: { approve: async (calls) => new Map(calls.map((c) => [c.id, "approved" as const])) },
    });
    const results: string[] = [];
    session.subscribe((ev) => {
      if (ev.type === "tool_result") results.push(ev.content);
    });
    await session.send({ type: "prompt", content: [{ type: "text", text: "echo" }] });
    await session.close();
    expect(results).toEqual(["echo: hi (from the program)"]);
  });
});
