// A built-in tool's argument schema is built on its first use, not when the module loads:
// building the zod schemas of every tool costs a headless start several ms, and a run whose model
// calls no tool never needs them (the request carries JSON schemas the build computed once).
export function lazySchema<T>(build: () => T): () => T {
  let schema: T | undefined;
  return () => {
    schema ??= build();
    return schema;
  };
}
