// What Gemini (and Vertex's Gemini) and Bedrock Converse refuse in a request body, for the fake
// provider's legality check (request-rules.ts): every function call / tool use is answered in the
// very next content / message, by name and order on Gemini, by `toolUseId` on Bedrock, and no
// answer stands without its call. Messages follow each API's wording where it is known.

/** Gemini: a `model` content's functionCall parts are answered by the next `user` content's functionResponse parts. */
export function geminiViolations(body: any): string[] {
  const problems: string[] = [];
  const contents: any[] = Array.isArray(body?.contents) ? body.contents : [];
  let owed: string[] = [];
  contents.forEach((content, i) => {
    const parts: any[] = Array.isArray(content?.parts) ? content.parts : [];
    const calls = parts.filter((p) => p?.functionCall).map((p) => String(p.functionCall.name));
    const answers = parts.filter((p) => p?.functionResponse).map((p) => String(p.functionResponse.name));
    if (answers.length > 0 && content?.role !== "user")
      problems.push(`contents[${i}]: functionResponse parts must be in a user turn`);
    if (owed.length > 0 && JSON.stringify(answers) !== JSON.stringify(owed))
      problems.push(
        `Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn (contents[${i - 1}] called ${owed.join(", ")}; contents[${i}] answered ${answers.join(", ") || "nothing"})`,
      );
    else if (owed.length === 0 && answers.length > 0)
      problems.push(`contents[${i}]: function response parts answer no function call turn`);
    if (calls.length > 0 && content?.role !== "model")
      problems.push(`contents[${i}]: functionCall parts must be in a model turn`);
    owed = calls;
  });
  if (owed.length > 0 && contents.at(-1)?.role === "model")
    problems.push("the request ends with a function call turn that no function response answers");
  return problems;
}

/** Bedrock Converse: each toolUse of an assistant message is answered by a toolResult in the next user message. */
export function bedrockViolations(body: any): string[] {
  const problems: string[] = [];
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  let owed = new Set<string>();
  messages.forEach((message, i) => {
    const blocks: any[] = Array.isArray(message?.content) ? message.content : [];
    const answered = blocks.filter((b) => b?.toolResult).map((b) => String(b.toolResult.toolUseId));
    for (const id of answered)
      if (!owed.has(id))
        problems.push(
          `The toolResult blocks at messages.${i}.content contain toolUseId ${id}, which matches no toolUse block of the previous turn.`,
        );
    const missing = [...owed].filter((id) => !answered.includes(id));
    if (missing.length > 0)
      problems.push(
        `Expected toolResult blocks at messages.${i}.content for the following Ids: ${missing.join(", ")}`,
      );
    if (i > 0 && messages[i - 1]?.role === message?.role)
      problems.push(`A conversation must alternate between user and assistant roles (messages.${i})`);
    owed = new Set(
      message?.role === "assistant"
        ? blocks.filter((b) => b?.toolUse).map((b) => String(b.toolUse.toolUseId))
        : [],
    );
  });
  if (
    body?.toolConfig === undefined &&
    messages.some((m) => m?.content?.some?.((b: any) => b?.toolUse || b?.toolResult))
  )
    problems.push("The toolConfig field must be defined when using toolUse and toolResult content blocks.");
  return problems;
}
