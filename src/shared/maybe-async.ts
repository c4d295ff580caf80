// A value that is often known at once and only sometimes awaited (a cached decision, a request
// without credentials). Each promise on the request path costs a few microseconds, more with the
// request scope's AsyncLocalStorage hooks on every promise (issue 30), so such steps answer the
// value itself when they can and a promise only when they really wait.

export type MaybePromise<T> = T | Promise<T>;

/** `fn(value)`, at once when `value` is known, after it otherwise. */
export function andThen<T, U>(value: MaybePromise<T>, fn: (v: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(fn) : fn(value);
}
