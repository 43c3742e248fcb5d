// Secrets (R-CFG-3). Redaction is by VALUE, not by pattern: whatever format a provider's error
// body, a tool's output or a server's stderr echoes a key in, the key's own characters are
// what gets replaced. One process-wide set, filled when the configuration is known, read by
// every writer (record, terminal, ledger) through `redactSecrets` / `redactDeep`.
import type { Config } from "./types.js";
import { escapeRegExp, wildcardMatchesAny } from "./wildcard.js";
import { hideFromProcEnviron } from "./environ-scrub.js";
import { toolSetSecrets, urlCredentials } from "./secret-sources.js";

/** Variable names tool processes never inherit (case-insensitive, `*` = any characters). */
export const SECRET_NAME_PATTERNS = [
  "*_API_KEY",
  "*_TOKEN",
  "*SECRET*",
  "*PASSWORD*",
  "*_CREDENTIALS",
  // Beyond the SPEC's list, names that hold keys as often: a bare `API_KEY`, `STRIPE_APIKEY`,
  // `SSH_PRIVATE_KEY`, `DB_PASSWD`, `GITHUB_PAT` (shellEnv.include passes one on purpose).
  "API_KEY",
  "APIKEY",
  "*_APIKEY",
  "*PRIVATE_KEY*",
  "*_PASSWD",
  "*_PAT",
];
/** Shorter values are not redacted: a key "x" would otherwise erase every x tern prints. */
const MIN_SECRET_LENGTH = 8;
export const REDACTED = "[redacted]";

const secrets = new Set<string>();

/** The spellings a value takes when something echoes it: as is, JSON-escaped, URL-encoded, base64, hex, reversed. */
function spellings(value: string): string[] {
  const bytes = Buffer.from(value, "utf8");
  return [
    value,
    JSON.stringify(value).slice(1, -1),
    encodeURIComponent(value),
    ...base64Cores(bytes),
    bytes.toString("hex"),
    [...value].reverse().join(""),
  ];
}

/**
 * A spelling as a pattern that also matches it broken by whitespace: `base64` wraps its lines
 * at 76 columns, `xxd -p` at 60, `od` spaces every byte and `fold` cuts anywhere, so a long key
 * printed through any of them never appears in one piece.
 */
function loosePattern(spelling: string): string {
  return [...spelling].map(escapeRegExp).join("\\s*");
}

/**
 * The base64 characters that spell `bytes` wherever they sit in a longer encoded text (e.g.
 * `Basic base64(user:key)`): for each of the three byte alignments, the characters that depend
 * only on the value's own bytes.
 */
function base64Cores(bytes: Buffer): string[] {
  const out: string[] = [];
  for (const lead of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(lead), bytes])
      .toString("base64")
      .replace(/=+$/, "");
    const start = lead === 0 ? 0 : lead + 1;
    const end = (lead + bytes.length) % 3 === 0 ? encoded.length : encoded.length - 1;
    const core = encoded.slice(start, end);
    if (core.length >= MIN_SECRET_LENGTH) out.push(core, core.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return out;
}

export function registerSecret(value: string | undefined): void {
  const v = value?.trim();
  if (!v || v.length < MIN_SECRET_LENGTH || secrets.has(v)) return;
  secrets.add(v);
  formsStale = true;
}

// What redaction looks for, derived from `secrets` when it is first needed after a change. The
// regular expression (every spelling, whitespace allowed between characters) costs ~1 ms to
// compile at its first use, then runs 3-8x faster per text than the cheap look below
// (mayHoldSecret). So the cheap look goes first, until it has read PREFILTER_BUDGET characters
// (a short run never gets there, and never compiles the expression unless a text may hold a
// key); after that the expression alone.
const PREFILTER_BUDGET = 64 * 1024;
let prefiltered = 0;
let formsStale = false;
/** Every spelling in lower case, for the cheap look that comes before the regular expression. */
let lowerForms: string[] = [];
let firstChars = new Set<string>();
let longestForm = 0;
/** Whether every spelling is ASCII, where lower-casing agrees with the /i match (see mayHoldSecret). */
let asciiForms = true;
let matcher: RegExp | null = null;

function refreshForms(): void {
  if (!formsStale) return;
  formsStale = false;
  prefiltered = 0;
  const forms = [...new Set([...secrets].flatMap(spellings))].sort((a, b) => b.length - a.length);
  lowerForms = forms.map((f) => f.toLowerCase());
  firstChars = new Set(lowerForms.map((f) => f[0]));
  longestForm = forms[0]?.length ?? 0;
  asciiForms = forms.every((f) => /^[\x00-\x7f]*$/.test(f));
  matcher = forms.length > 0 ? new RegExp(forms.map(loosePattern).join("|"), "gi") : null;
}

/**
 * False only when `text` cannot hold a spelling: with whitespace taken out and lower-cased, it
 * contains none. The /i match of an ASCII spelling pairs ASCII letters only (a non-ASCII letter
 * never folds to ASCII without the u flag), and `\s*` skips exactly what `\s+` takes out here,
 * so every match survives this; a false "maybe" only costs the regular expression.
 */
function mayHoldSecret(text: string): boolean {
  if (!asciiForms) return true;
  const squeezed = text.replace(/\s+/g, "").toLowerCase();
  return lowerForms.some((f) => squeezed.includes(f));
}

const matchesAny = (name: string, globs: string[]) => wildcardMatchesAny(globs, name, true);

/** Every configured provider's key variable (the one `apiKeyEnv` names). */
function providerKeyNames(config: Config): Set<string> {
  const names = new Set<string>();
  for (const p of Object.values(config.providers)) if (p.apiKeyEnv) names.add(p.apiKeyEnv);
  return names;
}

// Blanking /proc's copy of the environment (environ-scrub.ts) is for tern's own process: the
// CLI turns it on; a program embedding the library keeps its environment as it was.
let procEnvironOwned = false;
const hiddenNames = new Set<string>();
export function ownProcEnviron(): void {
  procEnvironOwned = true;
}

/** Registers the values of every provider key and of every variable whose name looks secret. */
export function registerSecretsFromEnv(env: NodeJS.ProcessEnv, config?: Config): void {
  const keyNames = config ? providerKeyNames(config) : new Set<string>();
  const include = config?.shellEnv.include ?? [];
  const exclude = [...SECRET_NAME_PATTERNS, ...(config?.shellEnv.exclude ?? [])];
  const secretNames = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (keyNames.has(name) || !matchesAny(name, exclude)) continue;
    // A variable the user passes to tools on purpose (shellEnv.include) is not treated as secret.
    if (!matchesAny(name, include)) {
      registerSecret(value);
      secretNames.add(name);
    } else if (value !== undefined && secrets.delete(value.trim())) formsStale = true;
  }
  // Provider keys last: a key is secret even if an included variable holds the same value.
  for (const name of keyNames) {
    registerSecret(env[name]);
    if (env[name] !== undefined) secretNames.add(name);
  }
  // Credentials configured as provider headers (Authorization, x-api-key…) are keys too.
  for (const provider of Object.values(config?.providers ?? {})) {
    for (const [header, value] of Object.entries(provider.headers ?? {})) {
      if (/auth|key|token|secret/i.test(header)) registerSecret(value.replace(/^(Bearer|Basic)\s+/i, ""));
    }
    urlCredentials(provider.baseUrl).forEach(registerSecret);
  }
  for (const set of config?.toolSets ?? []) {
    if ("url" in set) urlCredentials(set.url).forEach(registerSecret);
    toolSetSecrets(set, env).forEach(registerSecret);
  }
  if (env === process.env && procEnvironOwned) {
    // And any variable holding a secret's value under a harmless name (`ALIAS=$OPENAI_API_KEY`).
    for (const [name, value] of Object.entries(env))
      if (value !== undefined && secrets.has(value.trim())) secretNames.add(name);
    // Called at start and again with the config: /proc is read again only for names it adds.
    const fresh = new Set([...secretNames].filter((name) => !hiddenNames.has(name)));
    for (const name of fresh) hiddenNames.add(name);
    hideFromProcEnviron(fresh);
  }
}

/** `text` with every registered secret value, in any of its spellings, replaced by `[redacted]`. */
export function redactSecrets(text: string): string {
  if (secrets.size === 0 || text.length === 0) return text;
  refreshForms();
  if (!matcher) return text;
  if (prefiltered < PREFILTER_BUDGET) {
    prefiltered += text.length;
    if (!mayHoldSecret(text)) return text;
  }
  matcher.lastIndex = 0;
  return matcher.test(text) ? text.replace(matcher, REDACTED) : text;
}

/**
 * Redacts a text that arrives in pieces (a model's streamed answer): a key split across two
 * pieces is caught by holding back a tail that could begin one of its spellings until the next
 * piece shows whether it does. `flush` releases what is held when the stream ends.
 */
export class StreamRedactor {
  private held = "";

  /** Whether a tail is held back, waiting for the next piece to show it is not a key. */
  get holding(): boolean {
    return this.held !== "";
  }

  push(piece: string): string {
    if (secrets.size === 0) return piece;
    const text = redactSecrets(this.held + piece);
    const cut = possibleSecretStart(text);
    this.held = text.slice(cut);
    return text.slice(0, cut);
  }

  flush(): string {
    const rest = this.held;
    this.held = "";
    return redactSecrets(rest);
  }

  /** A new attempt of the stream: what was held belongs to the discarded one. */
  reset(): void {
    this.held = "";
  }
}

/** Where the longest tail of `text` that may begin a secret's spelling starts (`text.length` when none does). */
function possibleSecretStart(text: string): number {
  refreshForms();
  // Whitespace inside a spelling is allowed (see loosePattern), so the window is wider than the spelling.
  for (let i = Math.max(0, text.length - 2 * longestForm); i < text.length; i++) {
    if (!firstChars.has(text[i].toLowerCase())) continue;
    const tail = text.slice(i).replace(/\s+/g, "").toLowerCase();
    if (lowerForms.some((f) => f.startsWith(tail))) return i;
  }
  return text.length;
}

/** A copy of a JSON-like value with every string redacted (the same object when nothing changed). */
export function redactDeep<T>(value: T): T {
  if (secrets.size === 0) return value;
  if (typeof value === "string") return redactSecrets(value) as T;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const r = redactDeep(v);
      if (r !== v) changed = true;
      return r;
    });
    return (changed ? out : value) as T;
  }
  if (value && typeof value === "object") {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const r = redactDeep(v);
      if (r !== v) changed = true;
      out[k] = r;
    }
    return (changed ? out : value) as T;
  }
  return value;
}

/**
 * The environment of tool processes: no provider key, no variable whose name matches a secret
 * pattern (or `shellEnv.exclude`) unless `shellEnv.include` names it, and none whose value is a
 * registered secret, whatever its name.
 */
export function scrubbedEnv(env: NodeJS.ProcessEnv, config: Config): NodeJS.ProcessEnv {
  const keyNames = providerKeyNames(config);
  const exclude = [...SECRET_NAME_PATTERNS, ...config.shellEnv.exclude];
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || keyNames.has(name)) continue;
    // A name the user included by hand passes (its value is still redacted in what tern writes).
    const included = matchesAny(name, config.shellEnv.include);
    if (!included && (matchesAny(name, exclude) || secrets.has(value.trim()))) continue;
    out[name] = value;
  }
  return out;
}
