// At engine level (R-REC-5, R-REC-1): clear and rewind change what the next request
// carries while the archive keeps everything; the context record and a model switch survive resume.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { flagsToConfig } from "../../src/config/flags.js";
import { loadConfig } from "../../src/config/load.js";
import { resolveModel } from "../../src/config/resolve.js";
import type { ResolvedModel } from "../../src/config/types.js";
import { exportArchive } from "../../src/workspace/session-queries.js";
import { openSession, peekSessionModel, type ResumeTarget } from "../../src/engine/open-session.js";
import { coreOf } from "../../src/engine/core-of.js";
import type { Session } from "../../src/engine/session.js";
import { loadRecord } from "../../src/record/load.js";
import { FakeProvider } from "../support/fake-provider.js";
import { openaiText } from "../support/openai-script.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import type { ContentPart } from "../../src/vocab/messages.js";

let dirs: TempDirs;
let provider: FakeProvider;
const open: Session[] = [];

beforeEach(async () => {
  dirs = makeTempDirs();
  provider = await FakeProvider.start();
});
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  await provider.close();
  dirs.cleanup();
});

const env = { OPENAI_API_KEY: "x" };

function model(id: string) {
  const { config } = loadConfig({
    home: dirs.home,
    cwd: dirs.workspace,
    flags: flagsToConfig({ model: id, yes: true }),
    env,
  });
  return { config, model: resolveModel(config, env, { baseUrl: provider.baseUrl }).model };
}

async function start(id = "openai/mock-1", resume?: ResumeTarget): Promise<Session> {
  const { config, model: resolved } = model(id);
  const { session } = await openSession({
    home: dirs.home,
    cwd: dirs.workspace,
    config,
    model: resolved,
    resume,
    hooks: { approve: async (calls) => new Map(calls.map((c) => [c.id, "approved" as const])) },
  });
  open.push(session);
  return session;
}

async function close(session: Session): Promise<void> {
  open.splice(open.indexOf(session), 1);
  await session.close();
}

const text = (t: string): ContentPart[] => [{ type: "text", text: t }];

async function prompt(session: Session, t: string, content: ContentPart[] = text(t)) {
  provider.enqueue(openaiText(`answer to ${t}`));
  const outcome = await session.send({ type: "prompt", content });
  expect(outcome.stopReason).toBe("completed");
  return provider.requests.at(-1)!.body;
}

/** The request's messages as `role: text` lines (the system message included). */
function shape(body: any): string[] {
  return body.messages.map((m: any) => {
    const c =
      typeof m.content === "string"
        ? m.content
        : (m.content ?? []).map((p: any) => (p.type === "text" ? p.text : `[${p.type}]`)).join("+");
    return `${m.role}: ${m.role === "system" ? "…" : c}`;
  });
}

const recordOf = (session: Session) => loadRecord(join(coreOf(session).dir, "record.jsonl")).lines;

// A 1x1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

describe("clear and rewind (R-REC-5)", () => {
  it("clear drops the history from the next request, deletes the cleared images, and export keeps all", async () => {
    const session = await start();
    await prompt(session, "look", [
      { type: "text", text: "look" },
      { type: "image", mediaType: "image/png", data: PNG.toString("base64") },
    ]);
    await prompt(session, "second");
    const attachments = join(coreOf(session).dir, "attachments");
    expect(readdirSync(attachments)).toHaveLength(1);

    await session.send({ type: "clear" });
    expect(readdirSync(attachments)).toEqual([]);
    const body = await prompt(session, "after clear");
    expect(shape(body)).toEqual(["system: …", "user: after clear"]);

    // Turn numbers continue after a clear.
    expect(
      recordOf(session)
        .filter((l) => l.type === "user_prompt")
        .map((l: any) => l.turn),
    ).toEqual([1, 2, 3]);
    const md = exportArchive(dirs.home, session.id, "md");
    expect(md).toContain("look");
    expect(md).toContain("answer to second");
    expect(md).toMatch(/\[image deleted: [0-9a-f]{64}\.png\]/);
    expect(md).toContain("Context cleared");
    expect(md).toContain("answer to after clear");

    // A resume replays the clear too.
    await close(session);
    const resumed = await start("openai/mock-1", { id: session.id });
    expect(shape(await prompt(resumed, "resumed"))).toEqual([
      "system: …",
      "user: after clear",
      "assistant: answer to after clear",
      "user: resumed",
    ]);
  });

  it("an image sent again after a clear is stored again, and the next clear deletes it", async () => {
    const session = await start();
    const attachments = join(coreOf(session).dir, "attachments");
    const image: ContentPart = { type: "image", mediaType: "image/png", data: PNG.toString("base64") };
    await prompt(session, "one", [{ type: "text", text: "one" }, image]);
    await session.send({ type: "clear" });
    expect(readdirSync(attachments)).toEqual([]);
    await prompt(session, "two", [{ type: "text", text: "two" }, image]);
    expect(readdirSync(attachments)).toHaveLength(1);
    await session.send({ type: "rewind", turn: 1 });
    // A rewind withdraws turns but deletes nothing: the archive still shows them.
    expect(readdirSync(attachments)).toHaveLength(1);
    await session.send({ type: "clear" });
    expect(readdirSync(attachments)).toEqual([]);
  });

  it("rewind N leaves only turns <= N in the model context; the archive keeps the rest", async () => {
    const session = await start();
    await prompt(session, "t1");
    await prompt(session, "t2");
    await prompt(session, "t3");
    await session.send({ type: "rewind", turn: 1 });
    const body = await prompt(session, "t4");
    expect(shape(body)).toEqual(["system: …", "user: t1", "assistant: answer to t1", "user: t4"]);
    expect(recordOf(session).findLast((l) => l.type === "user_prompt")).toMatchObject({ turn: 4 });
    await expect(session.send({ type: "rewind", turn: 9 })).rejects.toThrow(/no turn 9/);

    const md = exportArchive(dirs.home, session.id, "md");
    for (const t of ["t2", "t3", "answer to t3", "Rewound to turn 1"]) expect(md).toContain(t);

    await close(session);
    const resumed = await start("openai/mock-1", { id: session.id });
    expect(shape(await prompt(resumed, "t5"))).toEqual([
      "system: …",
      "user: t1",
      "assistant: answer to t1",
      "user: t4",
      "assistant: answer to t4",
      "user: t5",
    ]);
  });
});

describe("context and model switch survive resume (R-REC-1)", () => {
  it("resume sends the recorded system prompt and writes no new context record when nothing changed", async () => {
    const session = await start();
    const first = await prompt(session, "hello");
    await close(session);
    const contexts = () => recordOf(session).filter((l) => l.type === "context");
    expect(contexts()).toHaveLength(1);
    const recorded = contexts()[0] as any;
    expect(first.messages[0]).toEqual({ role: "system", content: recorded.system });

    const resumed = await start("openai/mock-1", { id: session.id });
    const body = await prompt(resumed, "again");
    expect(body.messages[0]).toEqual(first.messages[0]);
    expect(body.tools).toEqual(first.tools);
    expect(contexts()).toHaveLength(1);
  });

  it("a changed system prompt on resume is recorded as a new context record", async () => {
    const session = await start();
    await prompt(session, "hello");
    await close(session);
    const { config, model: resolved } = model("openai/mock-1");
    const { session: resumed } = await openSession({
      home: dirs.home,
      cwd: dirs.workspace,
      config,
      model: resolved,
      resume: { id: session.id },
      extraSystem: "EXTRA-SYSTEM-TEXT",
      hooks: { approve: async () => new Map() },
    });
    open.push(resumed);
    const body = await prompt(resumed, "again");
    expect(body.messages[0].content).toContain("EXTRA-SYSTEM-TEXT");
    const contexts = recordOf(session).filter((l) => l.type === "context") as any[];
    expect(contexts).toHaveLength(2);
    expect(contexts[1].system).toBe(body.messages[0].content);
  });

  it("set_model switches the model, records it, and a resumed session keeps it", async () => {
    const session = await start();
    expect((await prompt(session, "on one")).model).toBe("mock-1");
    const two: ResolvedModel = model("openai/mock-2").model;
    await session.send({ type: "set_model", model: two });
    expect((await prompt(session, "on two")).model).toBe("mock-2");
    // Switching to the model in force writes nothing.
    await session.send({ type: "set_model", model: two });
    await close(session);

    const configs = recordOf(session).filter((l) => l.type === "config");
    expect(configs).toEqual([expect.objectContaining({ model: "openai/mock-2" })]);
    const assistants = recordOf(session).filter((l) => l.type === "assistant_message") as any[];
    expect(assistants.map((a) => a.model)).toEqual(["openai/mock-1", "openai/mock-2"]);

    // The front end resumes with the recorded model (setup.ts peeks it).
    const recorded = peekSessionModel(dirs.home, dirs.workspace, { id: session.id });
    expect(recorded).toBe("openai/mock-2");
    const resumed = await start(recorded, { id: session.id });
    expect((await prompt(resumed, "resumed")).model).toBe("mock-2");
    expect(recordOf(session).filter((l) => l.type === "config")).toHaveLength(1);
    expect(existsSync(join(coreOf(session).dir, "meta.json"))).toBe(true);
    expect(JSON.parse(readFileSync(join(coreOf(session).dir, "meta.json"), "utf8")).model).toBe(
      "openai/mock-2",
    );
  });
});
