// The types a generated client (src/generated/<source>/module.ts) is written with. A source's
// schema map `M` (generated in types.ts) names each output type's fields: a leaf is its TypeScript
// type (`LeafArgs` when it takes arguments), an object-valued field (a relation, an aggregation, a
// struct) is `Obj`. A selection names the fields to read: `true` for a leaf, `{ args }` for a leaf
// with arguments, `{ select, args? }` for an object, so a relation passed as a scalar, an unknown
// field or an unknown argument does not type-check, at any depth.

declare const OBJ: unique symbol;
declare const LEAF: unique symbol;

/** An object-valued field: its GraphQL type, one value or a list, and its arguments. */
export interface Obj<T extends string, L extends 'one' | 'list', A> {
  readonly [OBJ]: [T, L, A];
}

/** A leaf field that takes arguments. */
export interface LeafArgs<V, A> {
  readonly [LEAF]: [V, A];
}

/** `{ args }` when the field has a required argument, else `{ args? }`. */
type ArgsOf<A> = {} extends A ? { args?: A } : { args: A };

/** What can be selected on type `T` of schema map `M`. */
export type Selection<M, T extends keyof M> = {
  [K in keyof M[T]]?: M[T][K] extends Obj<infer U extends keyof M & string, 'one' | 'list', infer A>
    ? { select: Selection<M, U> } & ArgsOf<A>
    : M[T][K] extends LeafArgs<unknown, infer A> ? ({} extends A ? true | ArgsOf<A> : ArgsOf<A>) : true;
};

type Primitive = string | number | boolean | bigint | null | undefined;

/**
 * `V` with every key `Shape` does not have turned to `never`, at every depth: a generic parameter
 * escapes TypeScript's excess-property check, so selections and nested arguments are checked here.
 */
export type Exact<V, Shape> = unknown extends Shape ? V
  : V extends Primitive ? V
  : V extends readonly (infer E)[] ? (NonNullable<Shape> extends readonly (infer SE)[] ? readonly Exact<E, SE>[] : V)
  : { [K in keyof V]: K extends KeysOf<Exclude<Shape, Primitive>> ? Exact<V[K], ValueAt<Exclude<Shape, Primitive>, K>> : never };

/** The keys of any member of a union of object types, and what a key holds in the members that have it. */
type KeysOf<U> = U extends unknown ? keyof U : never;
type ValueAt<U, K> = U extends unknown ? (K extends keyof U ? U[K] : never) : never;

/** Nested lists are null rather than empty when no row is related (svc answers so). */
type Cardinal<R, L> = L extends 'list' ? R[] | null : R | null;

/** The value read for selection `S` on type `T`: only the selected fields, each with its type. */
export type Result<M, T extends keyof M, S> = {
  -readonly [K in keyof S & keyof M[T]]: M[T][K] extends Obj<infer U extends keyof M & string, infer L, unknown>
    ? (S[K] extends { readonly select: infer N } ? Cardinal<Result<M, U, N>, L> : never)
    : M[T][K] extends LeafArgs<infer V, unknown> ? V : M[T][K];
};

/** The selection parameter of a client method: inferred as written, then checked exactly. */
export type Select<M, T extends keyof M, S> = S & Exact<S, Selection<M, T>>;
