// npm and npx put this repository's node_modules/.bin first on PATH, where the language servers
// are devDependencies (typescript-language-server, pyright): every session a test opens would
// then start them at its first .ts or .py file (R-LSP-1), slowing and changing tests that are not
// about them. Tests of the language servers put that folder back on the PATH they give tern.
import { delimiter, resolve } from "node:path";

const REPO_BIN = resolve(import.meta.dirname, "../../node_modules/.bin");
process.env.PATH = (process.env.PATH ?? "")
  .split(delimiter)
  .filter((entry) => resolve(entry) !== REPO_BIN)
  .join(delimiter);
