// Syntax colour for code blocks (R-UI-10) with highlight.js, loaded lazily: its grammars are
// ~1 MB of source, so they stay off the start path and load (in their own chunk) when the
// first code fence is seen. Until then code is drawn uncoloured.
import { style } from "./ansi.js";

type HljsApi = typeof import("highlight.js").default;

let hljs: HljsApi | undefined;
let failed = false;
let loading: Promise<void> | undefined;
const listeners = new Set<() => void>();

/** Starts loading the highlighter (idempotent); `onReady` runs once it can colour. */
export function loadHighlighter(onReady?: () => void): Promise<void> {
  if (hljs) {
    onReady?.();
    return Promise.resolve();
  }
  if (onReady) listeners.add(onReady);
  loading ??= import("highlight.js/lib/common").then(
    (m) => {
      hljs = (m as unknown as { default: HljsApi }).default;
      for (const listener of listeners) listener();
      listeners.clear();
    },
    () => {
      // Colour is a nicety: without the grammars, code stays plain.
      failed = true;
      for (const listener of listeners) listener();
      listeners.clear();
    },
  );
  return loading;
}

/** True once the highlighter loaded, or failed to (then code stays plain). */
export function highlighterSettled(): boolean {
  return hljs !== undefined || failed;
}

/** Which colour each highlight.js scope gets (the first class word decides). */
const SCOPE: Record<string, (t: string) => string> = {
  keyword: style.magenta,
  built_in: style.cyan,
  type: style.cyan,
  literal: style.blue,
  number: style.blue,
  string: style.green,
  regexp: style.red,
  symbol: style.yellow,
  comment: style.gray,
  doctag: style.gray,
  meta: style.gray,
  title: style.yellow,
  attr: style.cyan,
  attribute: style.cyan,
  variable: style.red,
  params: (t) => t,
  tag: style.blue,
  name: style.blue,
  "selector-tag": style.magenta,
  "selector-class": style.yellow,
  addition: style.green,
  deletion: style.red,
  section: style.bold,
  emphasis: style.italic,
  strong: style.bold,
};

const ENTITIES: Record<string, string> = {
  "&lt;": "<",
  "&gt;": ">",
  "&amp;": "&",
  "&quot;": '"',
  "&#x27;": "'",
};

/** highlight.js's HTML (nested spans) to ANSI, colours applied per text run so lines can be split. */
export function htmlToAnsi(html: string): string {
  const stack: ((t: string) => string)[] = [];
  let out = "";
  const re = /<span class="([^"]*)">|<\/span>|([^<]+)/g;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    if (m[1] !== undefined) {
      const scope = m[1]
        .replace(/^hljs-/, "")
        .split(/[ .]/)[0]
        .replace(/^hljs-/, "");
      stack.push(SCOPE[scope] ?? stack.at(-1) ?? ((t) => t));
    } else if (m[0] === "</span>") stack.pop();
    else {
      const text = m[2].replace(/&(lt|gt|amp|quot|#x27);/g, (e) => ENTITIES[e] ?? e);
      const paint = stack.at(-1);
      // Colour each line separately: a code line must carry its own codes once wrapped or cut.
      out += paint
        ? text
            .split("\n")
            .map((l) => paint(l))
            .join("\n")
        : text;
    }
  }
  return out;
}

/** Coloured code, or undefined when the highlighter is not loaded or the language is unknown. */
export function highlight(code: string, lang: string): string | undefined {
  if (!hljs) return undefined;
  const language = lang.trim().split(/\s+/)[0]?.toLowerCase();
  try {
    if (language && hljs.getLanguage(language))
      return htmlToAnsi(hljs.highlight(code, { language, ignoreIllegals: true }).value);
    return undefined;
  } catch {
    return undefined;
  }
}
