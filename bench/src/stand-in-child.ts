// Run in a fresh process by stand-in-bench.ts: one of tern's hand-written stand-ins, or what it
// stands in for, doing the one job a start needs of it. argv: <stand-in> <own|library|none>;
// `none` does nothing (the bare child both are measured against). Prints the result, so a run
// whose two variants disagree is caught by the bench.
import { findJsonSyntaxError } from "../../src/config/json-position.js";
import { sha256Hex } from "../../src/record/sha256.js";
import { isoTimestamp } from "../../src/vocab/timestamp.js";

// Bundled as CommonJS: `require` is the file's own, and loads the library only in its variant.
declare const require: (id: string) => any;

/** A config file with one syntax error on line 40 (a missing comma), as a user's would be. */
const BROKEN_CONFIG = `{\n${Array.from({ length: 38 }, (_, i) => `  "key${i}": ${i},`).join("\n")}\n  "last": 1\n  "oops": 2\n}\n`;
const WORKSPACE = "/home/someone/projects/a-fairly-long-workspace-path/packages/frontend";

const jobs: Record<string, Record<string, () => string>> = {
  timestamp: {
    own: () => isoTimestamp(new Date(0)),
    library: () => new Date(0).toISOString(),
  },
  sha256: {
    own: () => sha256Hex(WORKSPACE),
    library: () => require("node:crypto").createHash("sha256").update(WORKSPACE).digest("hex"),
  },
  "json-position": {
    own: () => {
      const at = findJsonSyntaxError(BROKEN_CONFIG);
      return at ? `${at.line}:${at.column}` : "none";
    },
    library: () => {
      const jsonc = require("jsonc-parser");
      const errors: { offset: number }[] = [];
      jsonc.parse(BROKEN_CONFIG, errors, { allowTrailingComma: false, disallowComments: true });
      if (errors.length === 0) return "none";
      const before = BROKEN_CONFIG.slice(0, errors[0].offset);
      return `${before.split("\n").length}:${before.length - before.lastIndexOf("\n")}`;
    },
  },
};

const [name, variant] = process.argv.slice(2);
const job = variant === "none" ? () => "none" : jobs[name]?.[variant];
if (!job) throw new Error(`stand-in-child: unknown ${name} ${variant}`);
process.stdout.write(`${job()}\n`);
