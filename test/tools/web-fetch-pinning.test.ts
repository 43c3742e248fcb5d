// DNS rebinding (§10): web_fetch connects only to the addresses its host resolved to when the call
// was judged, never looking the name up again. No DNS here: names are answered by a resolver the
// test installs (replaceResolver), and two local servers on 127.0.0.1 and 127.0.0.2 tell which
// address a connection really reached.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type PinnedAddress, replaceResolver } from "../../src/tools/builtin/web-fetch-address.js";
import { webFetch, webFetchTool } from "../../src/tools/builtin/web-fetch.js";
import { ToolExecutor } from "../../src/tools/executor.js";
import { ApprovalPolicy } from "../../src/tools/policy/approval.js";
import { ToolRegistry } from "../../src/tools/registry.js";
import type { Tool } from "../../src/tools/types.js";
import { makeTempDirs } from "../support/tern-home.js";
import { makeCtx, textOf } from "./helpers.js";

const never = new AbortController().signal;
const hits = { a: 0, b: 0 };
let servers: Server[] = [];
let port = 0;

function serve(host: string, name: "a" | "b", at: number): Promise<Server> {
  const server = createServer((req, res) => {
    hits[name]++;
    if (req.url === "/hop") {
      res.statusCode = 302;
      res.setHeader("location", "/page");
      res.end();
      return;
    }
    res.setHeader("content-type", "text/plain");
    res.end(`served by ${name}`);
  });
  return new Promise((r) => server.listen(at, host, () => r(server)));
}

beforeAll(async () => {
  const a = await serve("127.0.0.1", "a", 0);
  port = (a.address() as AddressInfo).port;
  servers = [a, await serve("127.0.0.2", "b", port)];
});
afterAll(() => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
});

let restore = () => {};
const lookups: string[] = [];
/** Answers every name with the next address of `answers` (the last one repeats). */
function answer(...answers: string[]): void {
  let n = 0;
  restore = replaceResolver(async (name) => {
    lookups.push(name);
    const address = answers[Math.min(n++, answers.length - 1)];
    return [{ address, family: 4 }];
  });
}
afterEach(() => {
  restore();
  lookups.length = 0;
  hits.a = 0;
  hits.b = 0;
});

const url = (path = "/page") => `http://docs.example:${port}${path}`;
const pinned = (address: string): PinnedAddress[] => [{ address, family: 4 }];

describe("a connection goes only to the checked address", () => {
  it("pinned to 127.0.0.1 while the name now answers 127.0.0.2: the page comes from .1, no lookup", async () => {
    answer("127.0.0.2");
    const r = await webFetch({ url: url("/hop") }, never, { addresses: pinned("127.0.0.1") });
    expect(textOf(r)).toContain("served by a");
    expect(hits).toEqual({ a: 2, b: 0 });
    expect(lookups).toEqual([]);
  });

  it("without a pinned list the name is resolved (the resolver the check uses)", async () => {
    answer("127.0.0.2");
    expect(textOf(await webFetch({ url: url() }, never))).toContain("served by b");
    expect(lookups).toEqual(["docs.example"]);
  });

  it("a check that found no address connects nowhere, whatever the name answers later", async () => {
    answer("127.0.0.1");
    const r = await webFetch({ url: url() }, never, { addresses: [] });
    expect(r.outcome).toBe("error");
    expect(textOf(r)).toMatch(/ENOTFOUND docs\.example/);
    expect(hits).toEqual({ a: 0, b: 0 });
    expect(lookups).toEqual([]);
  });
});

describe("https", () => {
  it("connects to the pinned address and checks the certificate against the name", async () => {
    const dirs = makeTempDirs();
    const key = join(dirs.root, "key.pem");
    const cert = join(dirs.root, "cert.pem");
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        key,
        "-out",
        cert,
        "-subj",
        "/CN=docs.example",
        "-days",
        "1",
      ],
      { stdio: "ignore" },
    );
    let connections = 0;
    const tls = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_q, r) =>
      r.end("ok"),
    );
    tls.on("connection", () => connections++);
    await new Promise<void>((r) => tls.listen(0, "127.0.0.1", r));
    const at = (tls.address() as AddressInfo).port;
    answer("127.0.0.2");
    try {
      const r = await webFetch({ url: `https://docs.example:${at}/` }, never, {
        addresses: pinned("127.0.0.1"),
      });
      expect(r.outcome).toBe("error");
      expect(textOf(r)).toMatch(/self[- ]signed certificate/);
      expect(connections).toBe(1);
      expect(lookups).toEqual([]);
    } finally {
      tls.close();
      dirs.cleanup();
    }
  });
});

describe("the executor hands the tool the addresses its check saw", () => {
  const dirs = makeTempDirs();
  afterAll(() => dirs.cleanup());

  /** web_fetch, recording the addresses it was given instead of connecting (they may be public). */
  function recordingExecutor(mode: "auto-edit" | "yolo") {
    const given: (readonly PinnedAddress[] | undefined)[] = [];
    const tool: Tool = {
      ...(webFetchTool as unknown as Tool),
      run: async (_args, ctx) => {
        given.push(ctx.fetchAddresses);
        return { outcome: "ok", content: [{ type: "text", text: "fetched" }] };
      },
    };
    const registry = new ToolRegistry();
    registry.register(tool);
    const policy = new ApprovalPolicy({ mode, allow: [], deny: [], cwd: dirs.workspace });
    return { given, exec: new ToolExecutor(registry, policy, { parallel: true }) };
  }

  const asked: string[] = [];
  const hooks = {
    approve: async (calls: { id: string; reason?: string }[]) => {
      for (const c of calls) asked.push(c.reason ?? "");
      return new Map(calls.map((c) => [c.id, "denied" as const]));
    },
    onDecision: () => {},
    onStart: () => {},
    onResult: () => {},
  };
  const fetchCall = { id: "f1", name: "web_fetch", arguments: JSON.stringify({ url: url() }) };

  it("public at the check, 127.0.0.1 after: runs unasked in auto-edit, pinned to the public address", async () => {
    answer("198.51.100.7", "198.51.100.7", "127.0.0.1");
    const { given, exec } = recordingExecutor("auto-edit");
    asked.length = 0;
    const [result] = await exec.runBatch([fetchCall], makeCtx(dirs.workspace), hooks);
    expect(textOf(result)).toBe("fetched");
    expect(asked).toEqual([]);
    expect(given).toEqual([pinned("198.51.100.7")]);
  });

  it("a private answer at the last check asks (denied here): the tool never runs", async () => {
    answer("198.51.100.7", "127.0.0.1");
    const { given, exec } = recordingExecutor("auto-edit");
    asked.length = 0;
    const [result] = await exec.runBatch([fetchCall], makeCtx(dirs.workspace), hooks);
    expect(result.outcome).toBe("denied");
    expect(asked.join()).toMatch(/local or private address \(127\.0\.0\.1\)/);
    expect(given).toEqual([]);
  });
});
