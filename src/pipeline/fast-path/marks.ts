// What the fast path may take over, marked by the code that attaches the resolvers
// (src/pipeline/resolvers/index.ts), so the two cannot drift apart.
import type { GraphQLField } from 'graphql';

type Field = GraphQLField<unknown, unknown>;

/** Root fields whose resolver is a catalog read: one statement that builds the whole answer. */
const readRoots = new WeakSet<Field>();
/** Fields that read their value from the parent's JSON by response key (no resolver of their own). */
const plain = new WeakSet<Field>();

export const markReadRoot = (f: Field): void => void readRoots.add(f);
export const markPlain = (f: Field): void => void plain.add(f);
export const isReadRoot = (f: Field): boolean => readRoots.has(f);
export const isPlain = (f: Field): boolean => plain.has(f);
