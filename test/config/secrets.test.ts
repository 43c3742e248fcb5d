// R-CFG-3 at unit level: redaction by value in every spelling, and the scrubbed tool environment.
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import {
  redactDeep,
  redactSecrets,
  registerSecretsFromEnv,
  StreamRedactor,
  scrubbedEnv,
} from "../../src/config/secrets.js";

const KEY = "unit-key-ZX81spectrum";

describe("redaction by value", () => {
  registerSecretsFromEnv({ OPENAI_API_KEY: KEY, SHORT_TOKEN: "abc" }, defaultConfig());

  it("replaces the value in any spelling, and never short values", () => {
    const spelled = [
      KEY,
      JSON.stringify(KEY).slice(1, -1),
      encodeURIComponent(KEY),
      Buffer.from(KEY).toString("base64"),
      Buffer.from(`x:${KEY}`).toString("base64"),
      Buffer.from(KEY).toString("hex").toUpperCase(),
      KEY.toLowerCase(),
    ];
    for (const s of spelled) expect(redactSecrets(`before ${s} after`)).not.toContain(s);
    expect(redactSecrets(`key=${KEY}.`)).toBe("key=[redacted].");
    expect(redactSecrets("abc stays")).toBe("abc stays");
  });

  it("catches a long key that dump tools wrap, space or reverse", () => {
    const long = `sk-proj-${"A1b2C3d4E5f6G7h8".repeat(8)}XyZ`;
    registerSecretsFromEnv({ LONG_API_KEY: long }, defaultConfig());
    const line = `OPENAI_API_KEY=${long}\n`;
    const wrap = (text: string, width: number) => text.match(new RegExp(`.{1,${width}}`, "g"))!.join("\n");
    const hex = Buffer.from(line).toString("hex");
    const dumps = {
      base64: wrap(Buffer.from(line).toString("base64"), 76),
      "xxd -p": wrap(hex, 60),
      od: wrap(hex.replace(/(..)/g, " $1"), 48),
      fold: wrap(line, 40),
      rev: [...line].reverse().join(""),
    };
    for (const [tool, text] of Object.entries(dumps)) {
      const out = redactSecrets(text);
      expect(out, tool).toContain("[redacted]");
      const pieces = out.replace(/\s+/g, "");
      for (const piece of [long, Buffer.from(long).toString("base64").slice(4, 40), hex.slice(40, 100)])
        expect(pieces.toLowerCase(), tool).not.toContain(piece.toLowerCase());
    }
  });

  it("a key split across streamed pieces never comes out whole, whatever the cut", () => {
    const text = `the key is ${KEY}, and more text after it`;
    for (let cut = 1; cut < text.length; cut++) {
      for (const second of [cut, Math.min(text.length, cut + 3)]) {
        const r = new StreamRedactor();
        const out = [text.slice(0, cut), text.slice(cut, second), text.slice(second)].map((p) => r.push(p));
        out.push(r.flush());
        expect(out.join(""), `cut at ${cut}/${second}`).toBe("the key is [redacted], and more text after it");
      }
    }
    const plain = new StreamRedactor();
    const words = ["some ", "unit", "s are ", "fine"];
    expect([...words.map((w) => plain.push(w)), plain.flush()].join("")).toBe(words.join(""));
  });

  it("credentials written into a provider or MCP URL are secrets too", () => {
    const config = defaultConfig();
    config.providers.corp = {
      api: "openai-chat",
      baseUrl:
        "https://me:url-pass-9f8e7d6c@llm.corp.example/v1?api-version=2024-10-01&api_key=qkey-1a2b3c4d5e",
      headers: {},
    };
    config.toolSets = [{ name: "web", url: "https://mcp.example/mcp?token=mcp-tok-0z9y8x7w" } as never];
    registerSecretsFromEnv({}, config);
    expect(redactSecrets("url-pass-9f8e7d6c qkey-1a2b3c4d5e mcp-tok-0z9y8x7w 2024-10-01")).toBe(
      "[redacted] [redacted] [redacted] 2024-10-01",
    );
  });

  it("a key in mixed case, cut by any whitespace, is found; a text holding no key comes back as it was", () => {
    const broken = [...KEY.toUpperCase()].join(" \t\n");
    expect(redactSecrets(`<${broken}>`)).toBe("<[redacted]>");
    const clean = `nothing secret here: ${"unit-key ZX81 spectrum ".repeat(50)}`;
    expect(redactSecrets(clean)).toBe(clean);
  });

  it("redacts alike before and after the cheap look's budget is spent (then the expression alone)", () => {
    const broken = [...KEY.toUpperCase()].join(" \t\n");
    const clean = "line of some file content\n".repeat(100);
    for (let i = 0; i < 60; i++) expect(redactSecrets(clean)).toBe(clean);
    expect(redactSecrets(`<${broken}>`)).toBe("<[redacted]>");
    expect(redactSecrets(`key=${KEY}.`)).toBe("key=[redacted].");
    expect(redactSecrets(clean)).toBe(clean);
  });

  it("a key with letters beyond ASCII is still found in every case its /i match allows", () => {
    const unicodeKey = "clé-secrète-ÄÖÜ-9876";
    registerSecretsFromEnv({ UNICODE_API_KEY: unicodeKey }, defaultConfig());
    expect(redactSecrets(`x ${unicodeKey} y`)).toBe("x [redacted] y");
    expect(redactSecrets(`x ${unicodeKey.toUpperCase()} y`)).not.toContain(unicodeKey.toUpperCase());
    expect(redactSecrets(`x ${encodeURIComponent(unicodeKey)} y`)).toBe("x [redacted] y");
  });

  it("walks JSON values and keeps unchanged ones identical", () => {
    const clean = { a: ["x", { b: 1 }] };
    expect(redactDeep(clean)).toBe(clean);
    expect(redactDeep({ a: [`${KEY}!`], n: 2 })).toEqual({ a: ["[redacted]!"], n: 2 });
  });
});

describe("scrubbed environment", () => {
  it("drops provider keys, secret-looking names and secret values; honours shellEnv", () => {
    const config = defaultConfig();
    config.providers.corp = { api: "openai-chat", baseUrl: "http://x", apiKeyEnv: "CORP", headers: {} };
    config.shellEnv = { exclude: ["AWS_*"], include: ["CI_JOB_TOKEN"] };
    registerSecretsFromEnv({ CORP: "corp-key-value-42" }, config);
    const env = scrubbedEnv(
      {
        PATH: "/bin",
        HOME: "/home/u",
        CORP: "corp-key-value-42",
        OPENAI_API_KEY: KEY,
        npm_config_auth_token: "n",
        GH_TOKEN: "g",
        Db_Password: "p",
        MY_SECRET: "s",
        GCP_CREDENTIALS: "c",
        AWS_REGION: "eu",
        CI_JOB_TOKEN: "ci",
        COPY_OF_KEY: "corp-key-value-42",
        EDITOR: "vi",
        API_KEY: "a",
        STRIPE_APIKEY: "b",
        SSH_PRIVATE_KEY: "c",
        DB_PASSWD: "d",
        GITHUB_PAT: "e",
        KEYBOARD_LAYOUT: "us",
      },
      config,
    );
    expect(env).toEqual({
      PATH: "/bin",
      HOME: "/home/u",
      CI_JOB_TOKEN: "ci",
      EDITOR: "vi",
      KEYBOARD_LAYOUT: "us",
    });
  });
});
