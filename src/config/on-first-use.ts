// Modules the built CLI loads on their first use, and the sources (tests, the library) load at
// once: the build defines __TERN_LAZY_MODULES__ for the CLI only, so synchronous code run from
// the sources may use such a module without waiting for it.
declare const __TERN_LAZY_MODULES__: boolean | undefined;

/** True from the sources: a module made with `onFirstUse` is loaded as its user loads. */
export const loadsAtOnce = typeof __TERN_LAZY_MODULES__ === "undefined";

export interface LoadedOnFirstUse<M> {
  /** Loads the module, once: every call gets the same promise. */
  load(): Promise<M>;
  /** The module once `load()` has finished; before that it throws, naming what was used too early. */
  get(): M;
  /** Whether `load()` was ever called (nothing of the module can have run otherwise). */
  readonly started: boolean;
}

export function onFirstUse<M>(importer: () => Promise<M>, what: string): LoadedOnFirstUse<M> {
  let loading: Promise<M> | undefined;
  let loaded: M | undefined;
  return {
    load: () => {
      loading ??= importer().then((m) => {
        loaded = m;
        return m;
      });
      return loading;
    },
    get: () => {
      if (loaded === undefined) throw new Error(`${what} was used before it loaded`);
      return loaded;
    },
    get started() {
      return loading !== undefined;
    },
  };
}
