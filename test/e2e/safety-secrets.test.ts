// R-CFG-3 / R-BASH-1 through the built CLI: a model running `env` sees no key, and a key value
// that reaches tern from outside (tool output, a provider error body in any spelling) is
// redacted by value in every place tern writes: stdout, stderr, record, export, next request.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiError, openaiStream, openaiText, openaiToolCalls } from "../support/openai-script.js";
import { sessionDirs } from "./process-support.js";
import { ternRun, useE2E, writeUserConfig } from "./tools-support.js";

const e = useE2E();

const KEY = "sk-live-0123456789abcdefSECRET";
const CUSTOM = "cst9f8e7d6c5b4a3z2y1";

/** Every file under TERN_HOME, concatenated (record, meta, ledger, saved outputs). */
function everythingWritten(): string {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else out.push(readFileSync(p).toString("latin1"));
    }
  };
  walk(e.dirs.home);
  return out.join("\n");
}

describe("tool processes get a scrubbed environment (R-CFG-3, R-BASH-1)", () => {
  it("env shows no provider key, no *_API_KEY/_TOKEN/SECRET/PASSWORD/_CREDENTIALS, keeps the rest", async () => {
    writeUserConfig(e, {
      providers: { corp: { api: "openai-chat", baseUrl: e.provider.baseUrl, apiKeyEnv: "CORP_KEY_VAR" } },
      shellEnv: { exclude: ["INTERNAL_*"], include: ["PUBLIC_TOKEN"] },
    });
    e.provider.enqueue(
      openaiToolCalls([
        { id: "env", name: "bash", args: { command: "env | sort" } },
        // tern's start-up environment is readable by its children in /proc: the values are
        // blanked there, so no spelling of them (here one redaction cannot see) gets out.
        {
          id: "parent",
          name: "bash",
          args: {
            command:
              "tr '\\0' '\\n' < /proc/$PPID/environ | grep -E '^(OPENAI_API_KEY|CORP_KEY_VAR|GITHUB_TOKEN)='",
          },
        },
        {
          id: "dotted",
          name: "bash",
          args: { command: "tr '\\0' '\\n' < /proc/$PPID/environ | sed 's/./&./g'" },
        },
      ]),
      openaiText("ok"),
    );
    const r = await ternRun(e, ["--yes"], "show env", {
      env: {
        OPENAI_API_KEY: KEY,
        CORP_KEY_VAR: CUSTOM,
        ANOTHER_API_KEY: "another-key-value-123",
        GITHUB_TOKEN: "ghp_tokenvalue123456",
        DB_PASSWORD: "hunter2hunter2",
        MY_SECRET_THING: "s3cr3t-s3cr3t",
        GOOGLE_CREDENTIALS: "creds-creds-creds",
        INTERNAL_URL: "http://internal.example",
        PUBLIC_TOKEN: "public-ok-value",
        ALIAS_OF_KEY: KEY,
        HARMLESS_SETTING: "visible-value",
      },
    });
    expect(r.end).toMatchObject({ stop_reason: "completed" });
    const env = r.events.find((ev) => ev.type === "tool_result" && ev.id === "env").content as string;
    for (const name of [
      "OPENAI_API_KEY",
      "CORP_KEY_VAR",
      "ANOTHER_API_KEY",
      "GITHUB_TOKEN",
      "DB_PASSWORD",
      "MY_SECRET_THING",
      "GOOGLE_CREDENTIALS",
      "INTERNAL_URL",
      "ALIAS_OF_KEY",
    ])
      expect(env).not.toMatch(new RegExp(`^${name}=`, "m"));
    expect(env).toMatch(/^HARMLESS_SETTING=visible-value$/m);
    expect(env).toMatch(/^PUBLIC_TOKEN=public-ok-value$/m);
    expect(env).toMatch(/^PATH=/m);
    const parent = r.events.find((ev) => ev.type === "tool_result" && ev.id === "parent").content as string;
    expect(parent.split("\n").sort()).toEqual([
      `CORP_KEY_VAR=${"*".repeat(CUSTOM.length)}`,
      `GITHUB_TOKEN=${"*".repeat("ghp_tokenvalue123456".length)}`,
      `OPENAI_API_KEY=${"*".repeat(KEY.length)}`,
    ]);
    const dotted = r.events.find((ev) => ev.type === "tool_result" && ev.id === "dotted").content as string;
    expect(dotted).toContain("O.P.E.N.A.I._.A.P.I._.K.E.Y.=.*.*");
    for (const secret of [KEY, CUSTOM, "ghp_tokenvalue123456", "hunter2hunter2"])
      expect(dotted).not.toContain(secret.split("").join("."));
    // Only secrets are blanked (the tools' own environment, checked above, is built from tern's
    // variables, not from this copy: PUBLIC_TOKEN, passed on purpose, reaches them intact).
    expect(dotted).toContain("H.A.R.M.L.E.S.S._.S.E.T.T.I.N.G.=.v.i.s.i.b.l.e");
    for (const secret of [KEY, CUSTOM, "ghp_tokenvalue123456", "hunter2hunter2"]) {
      expect(r.stdout).not.toContain(secret);
      expect(everythingWritten()).not.toContain(secret);
      expect(e.provider.requests[1].rawBody).not.toContain(secret);
    }
  });
});

describe("key values are redacted by value wherever tern writes (R-CFG-3)", () => {
  it("a tool printing the key in several spellings: record, --json, next request, export all redacted", async () => {
    const b64 = Buffer.from(KEY).toString("base64");
    const basic = Buffer.from(`user:${KEY}`).toString("base64");
    const cmd = `printf '%s\\n' 'plain:${KEY}' 'url:${encodeURIComponent(KEY)}' 'b64:${b64}' 'upper:${KEY.toUpperCase()}' 'basic:${basic}'`;
    e.provider.enqueue(
      openaiToolCalls([{ id: "leak", name: "bash", args: { command: cmd } }]),
      openaiText("ok"),
    );
    const r = await ternRun(e, ["--yes"], "leak it", { env: { OPENAI_API_KEY: KEY } });
    expect(r.end).toMatchObject({ stop_reason: "completed" });
    const content = r.events.find((ev) => ev.type === "tool_result" && ev.id === "leak").content as string;
    expect(content).toMatch(
      /^plain:\[redacted\]\nurl:\[redacted\]\nb64:\[redacted\]\nupper:\[redacted\]\nbasic:\S*\[redacted\]\S*$/,
    );
    expect(content).not.toContain(basic);
    const written = everythingWritten();
    const next = e.provider.requests[1].rawBody;
    for (const spelling of [KEY, b64, KEY.toUpperCase(), basic]) {
      expect(r.stdout).not.toContain(spelling);
      expect(written).not.toContain(spelling);
      expect(next).not.toContain(spelling);
    }
    const id = r.events[0].id;
    const exported = await e.run(["export", id, "--format", "json"], { OPENAI_API_KEY: KEY });
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain("plain:[redacted]");
    expect(exported.stdout).not.toContain(KEY);
  });

  it("a provider error body echoing the key in an unusual format never reaches stderr, the record or the ledger", async () => {
    const bare = "live7Qz9x2Lm4Np8Rt6V"; // no sk- prefix: no pattern would catch it
    const hex = Buffer.from(bare).toString("hex");
    e.provider.enqueue(
      openaiError(401, {
        error: { message: `Invalid credentials 'key=${bare}' (hex ${hex}) for project p-1`, type: "auth" },
      }),
    );
    const r = await e.run(["run", "--model", "openai/mock-1", "--base-url", e.provider.baseUrl, "hello"], {
      OPENAI_API_KEY: bare,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Invalid credentials 'key=\[redacted\]' \(hex \[redacted\]\)/);
    expect(r.stderr).not.toContain(bare);
    expect(r.stderr).not.toContain(hex);
    const written = everythingWritten();
    expect(sessionDirs(e)).toHaveLength(1);
    expect(written).toContain("Invalid credentials");
    expect(written).not.toContain(bare);
    expect(written).not.toContain(hex);
  });
});

describe("keys that reach tern in pieces (R-CFG-3)", () => {
  const LONG = `sk-proj-${"A1b2C3d4E5f6G7h8".repeat(8)}XyZ`;

  it("a dump tool that wraps or spaces the key, and a key streamed across deltas, are redacted", async () => {
    // The key as a tool may find it (a dotenv file; tern's own /proc environ is blanked).
    writeFileSync(join(e.dirs.workspace, ".env"), `OPENAI_API_KEY=${LONG}\n`);
    const environ = "grep '^OPENAI_API_KEY=' .env";
    e.provider.enqueue(
      openaiToolCalls([
        { id: "b64", name: "bash", args: { command: `${environ} | base64` } },
        { id: "hex", name: "bash", args: { command: `${environ} | od -An -tx1 -v` } },
        { id: "fold", name: "bash", args: { command: `${environ} | fold -w 40` } },
      ]),
      openaiStream()
        .text(`the key is ${LONG.slice(0, 20)}`)
        .text(LONG.slice(20, 90))
        .text(`${LONG.slice(90)} and that is all`)
        .finish("stop")
        .usage({ prompt_tokens: 1, completion_tokens: 1 })
        .build(),
    );
    const r = await ternRun(e, ["--yes"], "leak it", { env: { OPENAI_API_KEY: LONG } });
    expect(r.end).toMatchObject({ stop_reason: "completed" });
    const results = r.events.filter((ev) => ev.type === "tool_result").map((ev) => ev.content as string);
    expect(results).toHaveLength(3);
    for (const content of results) expect(content).toContain("[redacted]");
    const deltas = r.events
      .filter((ev) => ev.type === "text_delta")
      .map((ev) => ev.text)
      .join("");
    expect(deltas).toBe("the key is [redacted] and that is all");
    // Whitespace taken out, no piece of the key in any spelling survives anywhere tern wrote.
    const squeeze = (text: string) => text.replace(/\s+|\\n/g, "").toLowerCase();
    const pieces = [
      LONG.slice(8, 60),
      Buffer.from(LONG).toString("base64").slice(8, 60),
      Buffer.from(LONG).toString("hex").slice(20, 80),
    ].map((p) => p.toLowerCase());
    for (const place of [r.stdout, everythingWritten(), e.provider.requests[1].rawBody])
      for (const piece of pieces) expect(squeeze(place)).not.toContain(piece);
  });
});
