// What Anthropic's Messages API refuses, as a checker for request bodies a test captured: tool
// blocks need tool definitions ("Requests which include tool_use or tool_result blocks must
// define tools"), tool_choice needs tools, roles alternate starting with the user, max_tokens is set.

/** Every published rule the body breaks (empty = the API would accept its shape). */
export function anthropicViolations(body: any): string[] {
  const problems: string[] = [];
  const tools: unknown[] = Array.isArray(body?.tools) ? body.tools : [];
  if (!Number.isInteger(body?.max_tokens) || body.max_tokens < 1) problems.push("max_tokens missing");
  if (body?.tool_choice !== undefined && tools.length === 0) problems.push("tool_choice without tools");
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  if (messages[0]?.role !== "user") problems.push("first message is not a user message");
  messages.forEach((message, i) => {
    if (i > 0 && messages[i - 1].role === message.role)
      problems.push(`messages ${i - 1} and ${i} share a role`);
    const blocks: any[] = Array.isArray(message.content) ? message.content : [];
    for (const block of blocks) {
      if ((block.type === "tool_use" || block.type === "tool_result") && tools.length === 0) {
        problems.push(`message ${i} holds a ${block.type} block but the request defines no tools`);
      }
      if (block.type === "text" && block.text === "") problems.push(`message ${i} holds an empty text block`);
    }
  });
  return problems;
}
