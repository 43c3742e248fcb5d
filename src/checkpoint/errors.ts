// Its own module so the engine can name it without loading the git code (shadow-repo.ts loads
// on a session's first snapshot).
export class CheckpointError extends Error {
  override name = "CheckpointError";
}
