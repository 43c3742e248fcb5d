// Node 20's JSON.parse errors carry no line/column, so when a config file fails to parse we
// re-scan it with this small strict JSON reader only to locate the first syntax error.

export interface JsonSyntaxError {
  line: number;
  column: number;
  message: string;
}

class Stop extends Error {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

export function findJsonSyntaxError(text: string): JsonSyntaxError | null {
  let i = 0;
  const fail = (reason: string): never => {
    throw new Stop(i, reason);
  };
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const describe = () =>
    i >= text.length ? "unexpected end of file" : `unexpected ${JSON.stringify(text[i])}`;
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(describe());
  };
  const string = () => {
    i++; // opening quote
    while (i < text.length) {
      const c = text[i];
      if (c === '"') {
        i++;
        return;
      }
      if (c === "\\") {
        const e = text[i + 1];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail("bad \\u escape");
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else {
          i++;
          fail("bad escape in string");
        }
      } else if (c < " ") fail("control character in string");
      else i++;
    }
    fail("unterminated string");
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) fail(describe());
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"')
          fail(text[i] === "}" ? "trailing comma" : `expected a quoted key, ${describe()}`);
        string();
        ws();
        if (text[i] !== ":") fail(`expected ":", ${describe()}`);
        i++;
        value();
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return;
        }
        fail(`expected "," or "}", ${describe()}`);
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] === "]") fail("trailing comma");
        value();
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return;
        }
        fail(`expected "," or "]", ${describe()}`);
      }
    }
    if (c === '"') string();
    else if (c === "t") literal("true");
    else if (c === "f") literal("false");
    else if (c === "n") literal("null");
    else if (c === "-" || (c >= "0" && c <= "9")) number();
    else fail(describe());
  };
  try {
    if (text.charCodeAt(0) === 0xfeff) i = 1;
    value();
    ws();
    if (i < text.length) fail(`${describe()} after the end of the value`);
    return null;
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    const before = text.slice(0, e.offset);
    const line = before.split("\n").length;
    const column = e.offset - (before.lastIndexOf("\n") + 1) + 1;
    return { line, column, message: e.reason };
  }
}
