// R-CFG-4 for a newcomer with no API key: a local OpenAI-compatible server (Ollama, LM Studio,
// llama.cpp, vLLM) may already be running. Each is asked `GET /v1/models` on the loopback address
// only, with a short timeout, all at once; nothing leaves the machine and nothing is written.
import { get } from "node:http";
import { AUTO_PROVIDER_ORDER } from "./defaults.js";
import type { Config } from "./types.js";

export interface LocalServerKind {
  /** Provider id the model is used under (`ollama` is built in; the others become ad-hoc providers). */
  id: string;
  label: string;
  port: number;
}

export interface LocalServer extends LocalServerKind {
  baseUrl: string;
  /** Model ids in the order the server listed them. */
  models: string[];
}

/** In priority order: the first one that lists a model is used. */
export const LOCAL_SERVER_KINDS: readonly LocalServerKind[] = [
  { id: "ollama", label: "Ollama", port: 11434 },
  { id: "lmstudio", label: "LM Studio", port: 1234 },
  { id: "llamacpp", label: "llama.cpp", port: 8080 },
  { id: "vllm", label: "vLLM", port: 8000 },
];

/**
 * Tests cannot bind the well-known ports reliably, so `TERN_LOCAL_PROBE_PORTS` (test use only,
 * e.g. `ollama:41001,vllm:41002`) replaces the list: only the named kinds are probed, on those ports.
 */
export const PROBE_PORTS_ENV = "TERN_LOCAL_PROBE_PORTS";

export const PROBE_TIMEOUT_MS = 400;

export function probeTargets(env: NodeJS.ProcessEnv): LocalServerKind[] {
  const override = env[PROBE_PORTS_ENV];
  if (override === undefined) return [...LOCAL_SERVER_KINDS];
  const targets: LocalServerKind[] = [];
  for (const entry of override.split(",")) {
    const [id, port] = entry.trim().split(":");
    const kind = LOCAL_SERVER_KINDS.find((k) => k.id === id);
    const number = Number(port);
    if (kind && Number.isInteger(number) && number > 0 && number < 65536)
      targets.push({ ...kind, port: number });
  }
  return targets;
}

/** Whether model resolution would otherwise stop with "no model configured and no API key found". */
export function needsLocalServer(
  config: Config,
  env: NodeJS.ProcessEnv,
  baseUrl: string | undefined,
): boolean {
  if (config.model !== undefined || baseUrl !== undefined) return false;
  return !AUTO_PROVIDER_ORDER.some((id) => {
    const name = config.providers[id]?.apiKeyEnv;
    return name !== undefined && (env[name] ?? "") !== "";
  });
}

/** Every probed server that answered with a model list (possibly empty), in priority order. */
export async function discoverLocalServers(
  env: NodeJS.ProcessEnv,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<LocalServer[]> {
  const answers = await Promise.all(
    probeTargets(env).map(async (kind) => {
      const baseUrl = `http://127.0.0.1:${kind.port}/v1`;
      const models = await listModels(`${baseUrl}/models`, timeoutMs);
      return models === undefined ? undefined : { ...kind, baseUrl, models };
    }),
  );
  return answers.filter((server): server is LocalServer => server !== undefined);
}

/** The model ids of an OpenAI-style `{data: [{id}]}` list; undefined when nothing usable answered. */
function listModels(url: string, timeoutMs: number): Promise<string[] | undefined> {
  return new Promise((resolve) => {
    const req = get(url, { timeout: timeoutMs, headers: { accept: "application/json" } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        resolve(undefined);
        return;
      }
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
        // A model list is small; anything huge is not the server we are looking for.
        if (text.length > 1_000_000) req.destroy();
      });
      res.on("end", () => resolve(modelIds(text)));
      res.on("error", () => resolve(undefined));
    });
    // The whole probe, connect to last byte, gets the timeout: a stuck server must not delay start-up.
    const timer = setTimeout(() => req.destroy(), timeoutMs);
    req.on("close", () => clearTimeout(timer));
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(undefined));
  });
}

function modelIds(text: string): string[] | undefined {
  try {
    const body = JSON.parse(text);
    if (!Array.isArray(body?.data)) return undefined;
    return body.data
      .map((entry: unknown) => (entry as { id?: unknown })?.id)
      .filter((id: unknown): id is string => typeof id === "string" && id !== "");
  } catch {
    return undefined;
  }
}

/** The one notice saying which local server and model were chosen. */
export function localServerNotice(server: LocalServer): string {
  const others = server.models.length > 1 ? ` (first of ${server.models.length} models)` : "";
  return (
    `no model configured and no API key found; using ${server.id}/${server.models[0]}${others} ` +
    `from the ${server.label} server at ${server.baseUrl}`
  );
}

/** `tern config check` lines for what the probe found. */
export function formatLocalServers(
  servers: readonly LocalServer[],
  targets: readonly LocalServerKind[],
): string[] {
  const lines = ["", "Local model servers (GET /v1/models on 127.0.0.1):"];
  for (const kind of targets) {
    const found = servers.find((s) => s.id === kind.id);
    if (!found) lines.push(`  ${kind.label} (port ${kind.port}): not found`);
    else if (found.models.length === 0) lines.push(`  ${kind.label} (port ${kind.port}): running, no models`);
    else
      lines.push(
        `  ${kind.label} (port ${kind.port}): ${found.models.map((m) => `${kind.id}/${m}`).join(", ")}`,
      );
  }
  return lines;
}
