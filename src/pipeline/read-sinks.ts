// Where the data objects an in-process operation reads go besides its own context: the field call
// of an extension's root field, so its cached answer is tagged with them (a write drops it).
import { AsyncLocalStorage } from 'node:async_hooks';

const readSinks = new AsyncLocalStorage<Set<string>>();

/** Runs `fn`; every in-process operation inside it adds the objects it read to `reads`. */
export function collectReads<T>(reads: Set<string>, fn: () => Promise<T>): Promise<T> {
  return readSinks.run(reads, fn);
}

/** The set of the innermost `collectReads` around the caller, if any. */
export const currentReadSink = (): Set<string> | undefined => readSinks.getStore();
