// A one-round `tern run` with OpenTelemetry on (R-AUTO-3), against the same run with it off, in
// turn: the SDK loads only when enabled, so the off run is the start-path figure and this row says
// what switching telemetry on costs (exports go to a local OTLP/HTTP receiver that answers at once).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { openaiText } from "../../test/support/openai-script.js";
import { expectExit, MB, type Paths, type Plan, repeat, scene, spawnNode, stats } from "./harness.js";
import type { Row } from "./rows.js";

export async function telemetryBench(p: Paths, plan: Plan): Promise<Row[]> {
  const s = await scene();
  let exports = 0;
  const receiver = createServer((req, res) => {
    req.resume().on("end", () => {
      exports++;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((done) => receiver.listen(0, "127.0.0.1", done));
  const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  try {
    s.provider.setFallback(openaiText("All good."));
    const run = async (on: boolean) => {
      const env = on
        ? { ...s.env, TERN_ENABLE_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: endpoint }
        : s.env;
      const r = await spawnNode(p, [p.bin, "run", ...s.modelArgs, "say something"], {
        cwd: s.dirs.workspace,
        env,
        measureUsage: true,
      });
      expectExit(r, `tern run (telemetry ${on ? "on" : "off"})`);
      return { wall: r.wallMs, rss: (r.usage?.maxRssBytes ?? 0) / MB };
    };
    const pairs = await repeat(plan, async () => ({ off: await run(false), on: await run(true) }));
    if (exports === 0) throw new Error("telemetry on sent nothing to the receiver");
    return [
      {
        name: "telemetry on",
        metric: "one-round tern run, spawn to exit (OTLP to a local receiver)",
        unit: "ms",
        stats: stats(pairs.map((x) => x.on.wall)),
        baseline: { name: "telemetry off", stats: stats(pairs.map((x) => x.off.wall)) },
        target: { kind: "ratio", value: 2, text: "<= 2x off" },
        notes: {
          peakRssOnMB: Math.round(stats(pairs.map((x) => x.on.rss)).median * 10) / 10,
          peakRssOffMB: Math.round(stats(pairs.map((x) => x.off.rss)).median * 10) / 10,
        },
      },
    ];
  } finally {
    receiver.close();
    await s.close();
  }
}
