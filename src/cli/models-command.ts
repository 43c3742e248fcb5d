// `tern models [provider]`: the model catalogue (R-PROV-16), models.dev's bundled data with the
// date of its copy, with config.json's `models` entries over it (config wins) and marked as such.
import { CATALOGUE, CATALOGUE_SOURCE, modelInfo } from "../config/catalogue.js";
import type { ModelInfo } from "../config/types.js";
import { loadSettings, ternHome } from "./setup.js";
import { formatTable } from "./table.js";

const tokens = (n: number) => (n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n));
const usd = (n: number | undefined) => (n === undefined ? "-" : `$${n}`);

function row(id: string, info: ModelInfo, fromConfig: boolean): string[] {
  const p = info.pricing;
  const tiers = (p?.tiers ?? []).map((t) => `>${tokens(t.above)}: $${t.input}/$${t.output}`).join(" ");
  const flags = [
    info.reasoning ? "reasoning" : "",
    info.images ? "images" : "",
    info.editTool === "apply_patch" ? "apply_patch" : "",
    fromConfig ? "config" : "",
  ].filter(Boolean);
  return [
    id,
    tokens(info.contextWindow),
    tokens(info.maxOutputTokens),
    p ? usd(p.input) : "?",
    p ? usd(p.output) : "?",
    usd(p?.cacheRead),
    usd(p?.cacheWrite),
    [flags.join(","), tiers].filter(Boolean).join(" "),
  ];
}

export async function modelsCommand(
  provider: string | undefined,
  opts: { config?: string },
): Promise<number> {
  const loaded = await loadSettings({ config: opts.config }, ternHome(), process.cwd());
  const configured = loaded.config.models;
  const ids = new Set([...Object.keys(CATALOGUE), ...Object.keys(configured)]);
  const rows: string[][] = [];
  for (const id of [...ids].sort()) {
    if (provider !== undefined && !id.startsWith(`${provider}/`)) continue;
    const { info } = modelInfo(id, configured[id]);
    rows.push(row(id, info, configured[id] !== undefined));
  }
  process.stdout.write(
    `catalogue: ${CATALOGUE_SOURCE.source} of ${CATALOGUE_SOURCE.date}; prices in USD per million tokens; config.json's models entries win\n`,
  );
  if (rows.length === 0) {
    process.stdout.write(`no model of provider "${provider}" in the catalogue or config\n`);
    return provider === undefined ? 0 : 1;
  }
  process.stdout.write(
    formatTable(["model", "window", "output", "input", "output", "cache read", "cache write", "notes"], rows),
  );
  return 0;
}
