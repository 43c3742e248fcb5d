// R-CFG-3 at unit level: redaction by value in every spelling, and the scrubbed tool environment.
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import { redactDeep, redactSecrets, registerSecretsFromEnv, scrubbedEnv } from "../../src/config/secrets.js";

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
      },
      config,
    );
    expect(env).toEqual({ PATH: "/bin", HOME: "/home/u", CI_JOB_TOKEN: "ci", EDITOR: "vi" });
  });
});
