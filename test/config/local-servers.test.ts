// The local-server probe itself (R-CFG-4): which ports, what counts as an answer, and that a
// server which accepts but never answers cannot hold start-up (the probe gives up on its own).
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import {
  discoverLocalServers,
  LOCAL_SERVER_KINDS,
  needsLocalServer,
  probeTargets,
} from "../../src/config/local-servers.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function httpServer(handler: Parameters<typeof createHttpServer>[1]): Promise<number> {
  const server: Server = createHttpServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  closers.push(() => new Promise((r) => server.close(() => r())));
  return (server.address() as { port: number }).port;
}

describe("local server probe", () => {
  it("probes the four well-known ports unless the test variable names others", () => {
    expect(probeTargets({}).map((t) => t.port)).toEqual([11434, 1234, 8080, 8000]);
    expect(probeTargets({ TERN_LOCAL_PROBE_PORTS: "vllm:4100, ollama:4200,bogus:1,lmstudio:x" })).toEqual([
      { ...LOCAL_SERVER_KINDS[3], port: 4100 },
      { ...LOCAL_SERVER_KINDS[0], port: 4200 },
    ]);
    expect(probeTargets({ TERN_LOCAL_PROBE_PORTS: "" })).toEqual([]);
  });

  it("is needed only without a model, a base URL or any provider key", () => {
    const config = defaultConfig();
    expect(needsLocalServer(config, {}, undefined)).toBe(true);
    expect(needsLocalServer(config, { ANTHROPIC_API_KEY: "k" }, undefined)).toBe(false);
    expect(needsLocalServer(config, { GROQ_API_KEY: "k" }, undefined)).toBe(false);
    expect(needsLocalServer(config, {}, "http://127.0.0.1:9/v1")).toBe(false);
    expect(needsLocalServer({ ...config, model: "openai/gpt-5" }, {}, undefined)).toBe(false);
  });

  it("reads an OpenAI-style model list and ignores servers that answer something else", async () => {
    const good = await httpServer((req, res) => {
      expect(`${req.method} ${req.url}`).toBe("GET /v1/models");
      res.end(JSON.stringify({ data: [{ id: "a" }, { id: "" }, { id: "b" }] }));
    });
    const html = await httpServer((_req, res) => res.end("<html>a web app</html>"));
    const missing = await httpServer((_req, res) => {
      res.statusCode = 404;
      res.end("{}");
    });
    const found = await discoverLocalServers({
      TERN_LOCAL_PROBE_PORTS: `ollama:${html},lmstudio:${missing},vllm:${good}`,
    });
    expect(found).toEqual([
      { id: "vllm", label: "vLLM", port: good, baseUrl: `http://127.0.0.1:${good}/v1`, models: ["a", "b"] },
    ]);
  });

  it("gives up on a server that accepts the connection and never answers", async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    closers.push(async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => silent.close(() => r()));
    });
    const port = (silent.address() as { port: number }).port;
    expect(await discoverLocalServers({ TERN_LOCAL_PROBE_PORTS: `ollama:${port}` }, 200)).toEqual([]);
  });
});
