// (§10 attachments, R-WF-4): `@file` attachments follow the real path. A repository
// file `docs/setup.md -> ~/.ssh/id_rsa`, a symlinked folder (`@linked/o.txt`) and `@../outside/x`
// inside a repository command's body used to put the file into the provider request unasked. Now
// a target outside the workspace asks naming the real target (`tern run` without --yes: refused
// with a one-line notice naming it); TERN_HOME and `.git` internals never attach, --yes or not.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText } from "../support/openai-script.js";
import { ternRun, useE2E } from "./tools-support.js";
import { notices } from "./workflow-support.js";

const e = useE2E();
const ws = (...p: string[]) => join(e.dirs.workspace, ...p);
const KEY = "-----BEGIN OPENSSH PRIVATE KEY----- KEY-MARKER-42";

function scene() {
  const home = join(e.dirs.root, "user");
  mkdirSync(join(home, ".ssh"), { recursive: true });
  writeFileSync(join(home, ".ssh", "id_rsa"), `${KEY}\n`);
  const outside = join(e.dirs.root, "outside");
  mkdirSync(outside);
  writeFileSync(join(outside, "o.txt"), "OUTSIDE-MARKER\n");
  writeFileSync(join(outside, "x"), "OUTSIDE-X-MARKER\n");
  mkdirSync(ws("docs"));
  symlinkSync(join(home, ".ssh", "id_rsa"), ws("docs", "setup.md"));
  symlinkSync(outside, ws("linked"));
  writeFileSync(ws("notes.md"), "INSIDE-MARKER\n");
  symlinkSync(ws("notes.md"), ws("docs", "alias.md"));
  mkdirSync(ws(".git"));
  writeFileSync(ws(".git", "config"), "[remote] GIT-CONFIG-MARKER\n");
  writeFileSync(join(e.dirs.home, "keys.txt"), "HOME-MARKER\n");
  mkdirSync(ws(".claude", "commands"), { recursive: true });
  writeFileSync(ws(".claude", "commands", "peek.md"), "Look at @../outside/x please.\n");
  return { home, outside, env: { HOME: home } };
}

const sent = () => JSON.stringify(e.provider.requests.map((r) => r.body));

describe("@file attachments resolve their real path", () => {
  it("without --yes: a symlinked file, a symlinked folder and ../ are refused, each notice naming the real target", async () => {
    const { home, outside, env } = scene();
    e.provider.enqueue(openaiText("ok"));
    const run = await ternRun(
      e,
      [],
      "summarize @docs/setup.md and @linked/o.txt and @../outside/x and @docs/alias.md",
      {
        env,
      },
    );
    expect(run.code).toBe(0);
    const body = sent();
    expect(body).not.toContain("KEY-MARKER-42");
    expect(body).not.toContain("OUTSIDE-MARKER");
    expect(body).not.toContain("OUTSIDE-X-MARKER");
    expect(body).toContain("INSIDE-MARKER");
    const said = notices(run.events);
    for (const [shown, real] of [
      ["docs/setup.md", join(home, ".ssh", "id_rsa")],
      ["linked/o.txt", join(outside, "o.txt")],
      ["../outside/x", join(outside, "x")],
    ])
      expect(said).toContain(
        `@${shown} not attached: it leads outside the workspace, to ${real}, and was not approved`,
      );
  });

  it("a repository command's body is judged the same way", async () => {
    const { outside, env } = scene();
    e.provider.enqueue(openaiText("ok"));
    const run = await ternRun(e, [], "/peek", { env });
    expect(run.code).toBe(0);
    expect(sent()).not.toContain("OUTSIDE-X-MARKER");
    expect(notices(run.events)).toContain(
      `@../outside/x not attached: it leads outside the workspace, to ${join(outside, "x")}, and was not approved`,
    );
  });

  it("--yes approves an outside target; TERN_HOME and .git internals never attach", async () => {
    const { env } = scene();
    e.provider.enqueue(openaiText("ok"));
    const run = await ternRun(e, ["--yes"], "read @linked/o.txt and @.git/config and @../home/keys.txt", {
      env,
    });
    expect(run.code).toBe(0);
    const body = sent();
    expect(body).toContain("OUTSIDE-MARKER");
    expect(body).not.toContain("GIT-CONFIG-MARKER");
    expect(body).not.toContain("HOME-MARKER");
    const said = notices(run.events);
    expect(said).toContain(
      `@.git/config not attached: it is inside a .git folder, a repository's internals (${ws(".git", "config")})`,
    );
    expect(said).toContain(
      `@../home/keys.txt not attached: it is in TERN_HOME, tern's own settings and keys (${join(e.dirs.home, "keys.txt")})`,
    );
  });

  it("an @image leading outside is refused in one line naming the real target (--image stays the person's choice)", async () => {
    const { outside, env } = scene();
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(32),
    ]);
    writeFileSync(join(outside, "p.png"), png);
    symlinkSync(join(outside, "p.png"), ws("shot.png"));
    const run = await ternRun(e, [], "look at @shot.png", { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `image @shot.png: leads outside the workspace, to ${join(outside, "p.png")}; not attached`,
    );
    expect(e.provider.requests).toHaveLength(0);
  });
});
