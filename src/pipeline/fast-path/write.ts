// The answer text of a rows statement written straight from its rows (issue 30 item 2): JavaScript
// generated once per (rows layout, answer shape) pair that walks the rows once and writes the
// JSON, checking on the way what the completion check would (complete.ts: keys in order, each
// leaf a value its type serializes to itself, no null where the type says non-null) and counting
// the objects for the answer budget. Where any value is not provably its own completion, writing
// stops and the answer is completed from its objects as before, so the text is always the bytes
// stringifyResponse would have written. The generated text holds response keys (as JSON string
// literals) and column positions only, never a value of a request.
import { GraphQLBoolean, GraphQLFloat, GraphQLID, GraphQLInt, type GraphQLLeafType, GraphQLScalarType, GraphQLString } from 'graphql';
import type { RowsAssembler } from '../../sql/compiler.js';
import type { RowsWriter } from '../../sql/rows/answer.js';
import type { PositionalObject, RowField } from '../../sql/rows/layout.js';
import { parseDbJson, stringifyJson } from '../../shared/json.js';
import type { Out } from './shape.js';

/** Thrown by a value writer where the completed value may differ: the caller completes the objects. */
const BAIL = new Error('not its own completion');
function bail(): never {
  throw BAIL;
}

/** Writes one value (a leaf, or a list of leaves) as the completed answer holds it. */
type Leaf = (v: unknown) => string;

const GRAPHQL_MIN_INT = -2147483648;
const GRAPHQL_MAX_INT = 2147483647;

// As complete.ts's UNCHANGED: a value its built-in scalar serializes to itself; anything else bails.
// `'' + n` is JSON.stringify's text of a finite number (both are Number::toString; -0 prints 0).
/** Characters JSON.stringify escapes (quote, backslash, controls, surrogates: a lone one is escaped). */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;
/** A string's JSON: most need no escape, and a native test plus quotes is half of JSON.stringify's cost. */
const quoted = (v: string): string => (ESCAPED.test(v) ? JSON.stringify(v) : `"${v}"`);
const STRING: Leaf = (v) => (typeof v === 'string' ? quoted(v) : v === null ? 'null' : bail());
/**
 * The inside of a non-null string's quotes (the generated code writes the quotes with the text
 * around them): the string itself where it needs no escape, so no quoted copy is made per value.
 */
const STRING_INSIDE: Leaf = (v) => (typeof v !== 'string' ? bail() : ESCAPED.test(v) ? JSON.stringify(v).slice(1, -1) : v);
const BOOLEAN: Leaf = (v) => (v === true ? 'true' : v === false ? 'false' : v === null ? 'null' : bail());
const INT: Leaf = (v) => (typeof v === 'number' && Number.isInteger(v) && v >= GRAPHQL_MIN_INT && v <= GRAPHQL_MAX_INT ? `${v}` : v === null ? 'null' : bail());
const FLOAT: Leaf = (v) => (typeof v === 'number' && Number.isFinite(v) ? `${v}` : v === null ? 'null' : bail());
/** A custom scalar whose `serialize` is graphql-js's identity (every SDL scalar of the catalogs). */
const IDENTITY: Leaf = (v) => {
  switch (typeof v) {
    case 'string':
      return quoted(v);
    case 'number':
      return Number.isFinite(v) ? `${v}` : bail();
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      // Exact digits, as stringifyJson writes a BigInt (SPEC §3.4).
      return v.toString();
    case 'object':
      if (v === null) return 'null';
      // A failed cross-source value holds its error: graphql-js reports it.
      if (v instanceof Error) bail();
      // JSON values, lists, geometry: the one place a generic stringify (and its BigInt marks) remains.
      return stringifyJson(v);
    default:
      return bail();
  }
};

// Values of JSON text read by JSON.parse, without parseDbJson's scan for big integers ("unmarked"):
// an integer token beyond 2^53 became a double with |v| > MAX_SAFE_INTEGER, so any such number
// stops the writer (the objects are then read with the scan, exactly), as does an object or list
// under a custom scalar (it could hold such a number). Other values are exact either way.
const unsafe = (v: number): boolean => v > Number.MAX_SAFE_INTEGER || v < -Number.MAX_SAFE_INTEGER;
const FLOAT_UNMARKED: Leaf = (v) => (typeof v === 'number' && Number.isFinite(v) && !unsafe(v) ? `${v}` : v === null ? 'null' : bail());
const IDENTITY_UNMARKED: Leaf = (v) => (typeof v === 'object' && v !== null) || (typeof v === 'number' && unsafe(v)) ? bail() : IDENTITY(v);

const BUILT_IN = new Map<GraphQLLeafType, Leaf>([[GraphQLString, STRING], [GraphQLID, STRING], [GraphQLBoolean, BOOLEAN], [GraphQLInt, INT], [GraphQLFloat, FLOAT]]);
/** graphql-js's serialize of a scalar declared without one (the same function for every such scalar). */
const IDENTITY_SERIALIZE = new GraphQLScalarType({ name: 'Identity' }).serialize;
/** Catalog scalars (SPEC §3.4) whose values are JSON strings or numbers, never objects or lists. */
const FLAT_SCALARS = new Set(['BigInt', 'Date', 'Time', 'Timestamp', 'DateTime', 'Interval']);

function scalarLeaf(type: GraphQLLeafType, unmarked: boolean): Leaf | undefined {
  if (type === GraphQLFloat && unmarked) return FLOAT_UNMARKED;
  const builtIn = BUILT_IN.get(type);
  if (builtIn) return builtIn;
  // Enums and scalars with a serialize of their own (a renamed built-in, an extension's) are completed as before.
  if (!(type instanceof GraphQLScalarType) || type.serialize !== IDENTITY_SERIALIZE) return undefined;
  return unmarked ? IDENTITY_UNMARKED : IDENTITY;
}

/**
 * Whether JSON text answering `out` may be read without the big-integer scan: every leaf is a
 * built-in scalar or one of the flat catalog scalars (the per-column checks above then suffice).
 * JSON, Geometry, ranges and other values that may be objects keep the scan.
 */
function unmarkedFits(out: Out): boolean {
  switch (out.kind) {
    case 'non_null':
    case 'list':
      return unmarkedFits(out.of);
    case 'leaf':
      return BUILT_IN.has(out.type) || FLAT_SCALARS.has(out.type.name);
    case 'object':
      return out.fields.every((f) => f.typename !== undefined || unmarkedFits(f.out));
  }
}

/** The writer of a value read from a column (a leaf or a list of them), or undefined for another shape. */
function leafOf(out: Out, unmarked = false): Leaf | undefined {
  switch (out.kind) {
    case 'non_null': {
      const of = leafOf(out.of, unmarked);
      return of && ((v) => (v === null || v === undefined ? bail() : of(v)));
    }
    case 'list': {
      const of = leafOf(out.of, unmarked);
      return of && ((v) => {
        if (v === null) return 'null';
        if (!Array.isArray(v)) bail();
        let s = '[';
        for (let i = 0; i < v.length; i++) s += i ? `,${of(v[i])}` : of(v[i]);
        return `${s}]`;
      });
    }
    case 'leaf':
      return scalarLeaf(out.type, unmarked);
    case 'object':
      return undefined;
  }
}

class NoWriter extends Error {}

/** Out without its non-null wrapper, and whether it had one. */
function nullable(out: Out): { readonly of: Out; readonly nonNull: boolean } {
  return out.kind === 'non_null' ? { of: out.of, nonNull: true } : { of: out, nonNull: false };
}

function objectOut(out: Out, keys: readonly string[]): Extract<Out, { kind: 'object' }> {
  if (out.kind !== 'object' || out.keys.length !== keys.length || out.keys.some((k, i) => k !== keys[i])) throw new NoWriter();
  return out;
}

/** `s += <text>` statements, constant pieces merged into one literal. */
class Code {
  private readonly parts: string[] = [];
  private literal = '';

  text(t: string): void {
    this.literal += t;
  }

  value(expr: string): void {
    this.flush();
    this.parts.push(`s += ${expr};`);
  }

  raw(statement: string): void {
    this.flush();
    this.parts.push(statement);
  }

  private flush(): void {
    if (this.literal) this.parts.push(`s += ${JSON.stringify(this.literal)};`);
    this.literal = '';
  }

  done(): string {
    this.flush();
    return this.parts.join(' ');
  }
}

class Generator {
  readonly leaves: Leaf[] = [];
  private readonly helpers: string[] = [];
  /** Generating the values of JSON text read without the big-integer scan. */
  private unmarked = false;

  private leaf(out: Out): string {
    const l = leafOf(out, this.unmarked);
    if (!l) throw new NoWriter();
    return `W[${this.leaves.push(l) - 1}]`;
  }

  /** Writes the value `expr` answering `out`; a non-null String or ID is written between literal quotes. */
  private leafValue(code: Code, out: Out, expr: string): void {
    if (out.kind === 'non_null' && out.of.kind === 'leaf' && (out.of.type === GraphQLString || out.of.type === GraphQLID)) {
      code.text('"');
      code.value(`W[${this.leaves.push(STRING_INSIDE) - 1}](${expr})`);
      code.text('"');
      return;
    }
    code.value(`${this.leaf(out)}(${expr})`);
  }

  private helper(body: (name: string) => string): string {
    const at = this.helpers.push('') - 1;
    const name = `h${at}`;
    this.helpers[at] = body(name);
    return name;
  }

  /** A constant (`__typename`) under its response key: written once, here. */
  private constant(sub: Extract<Out, { kind: 'object' }>['fields'][number], value: string | number | boolean | null): string {
    if (sub.typename !== undefined) {
      if (value !== sub.typename) throw new NoWriter();
      return JSON.stringify(value);
    }
    const l = leafOf(sub.out);
    if (!l) throw new NoWriter();
    try {
      return l(value);
    } catch {
      throw new NoWriter();
    }
  }

  /** Statements writing the object of row `r` (fields read from its columns); one object counted. */
  private rowObject(code: Code, fields: readonly RowField[], out: Extract<Out, { kind: 'object' }>, r: string): void {
    code.raw('n++;');
    fields.forEach((f, i) => {
      const sub = out.fields[i]!;
      code.text(`${i ? ',' : '{'}${JSON.stringify(f.key)}:`);
      const v = f.value;
      if (sub.typename !== undefined && v.kind !== 'const') throw new NoWriter();
      switch (v.kind) {
        case 'column':
          this.leafValue(code, sub.out, `${r}[${v.index}]`);
          break;
        case 'const':
          code.text(this.constant(sub, v.value));
          break;
        case 'object': {
          const { of, nonNull } = nullable(sub.out);
          const inner = objectOut(of, v.fields.map((x) => x.key));
          const body = new Code();
          this.rowObject(body, v.fields, inner, r);
          code.raw(`if ((${r}[${v.present}] & ${v.bit}) === 0) ${nonNull ? 'bail();' : 's += "null";'} else { ${body.done()} }`);
          break;
        }
        case 'children':
          code.value(`${this.parsed(sub.out, () => this.listHelper(v.rows, sub.out))}(${r}[${v.index}]))`);
          break;
        case 'arrays':
          code.value(`${this.arraysHelper(v, sub.out)}(${r})`);
          break;
      }
    });
    code.text(fields.length ? '}' : '{}');
  }

  /**
   * A 1:N level of values from its arrays (one per field, read by type as columns are: no JSON
   * parse, no big-integer scan); null or `[]` without rows, as the level says.
   */
  private arraysHelper(v: Extract<RowField['value'], { kind: 'arrays' }>, out: Out): string {
    const { of: list, nonNull } = nullable(out);
    if (list.kind !== 'list') throw new NoWriter();
    const inner = objectOut(nullable(list.of).of, v.fields.map((f) => f.key));
    const columns = v.fields.flatMap((f) => (f.value.kind === 'column' ? [f.value.index] : []));
    const body = new Code();
    body.raw('n++;');
    v.fields.forEach((f, i) => {
      const sub = inner.fields[i]!;
      body.text(`${i ? ',' : '{'}${JSON.stringify(f.key)}:`);
      if (f.value.kind === 'const') body.text(this.constant(sub, f.value.value));
      else if (sub.typename !== undefined) throw new NoWriter();
      else this.leafValue(body, sub.out, `a${f.value.index}[i]`);
    });
    body.text('}');
    const first = `a${columns[0]}`;
    const empty = v.emptyAsNull ? (nonNull ? 'bail();' : 'return "null";') : 'return "[]";';
    // An item is a row, never null: the item type's non-null wrapper holds.
    return this.helper((name) =>
      `function ${name}(r) { ${columns.map((c) => `const a${c} = r[${c}];`).join(' ')} if (${first} === null) ${empty} if (!Array.isArray(${first})) bail(); let s = '['; for (let i = 0; i < ${first}.length; i++) { if (i) s += ','; ${body.done()} } return s + ']'; }`);
  }

  /** Statements writing the positional object `x` (a JSON array of values in field order). */
  private positional(code: Code, o: PositionalObject, out: Extract<Out, { kind: 'object' }>, x: string): void {
    code.raw('n++;');
    o.fields.forEach((f, i) => {
      const sub = out.fields[i]!;
      code.text(`${i ? ',' : '{'}${JSON.stringify(f.key)}:`);
      const v = `${x}[${i}]`;
      if (sub.typename !== undefined) {
        // `__typename` inside a 1:N level: the array holds it; it must be the type's name.
        if (f.kind !== 'value') throw new NoWriter();
        code.raw(`if (${v} !== ${JSON.stringify(sub.typename)}) bail();`);
        code.text(JSON.stringify(sub.typename));
      } else if (f.kind === 'value') this.leafValue(code, sub.out, v);
      else code.value(`${f.kind === 'object' ? this.objectHelper(f.of, sub.out) : this.listHelper(f.of, sub.out)}(${v})`);
    });
    code.text(o.fields.length ? '}' : '{}');
  }

  /**
   * `helper(J(` for JSON text answering `out`: read by JSON.parse with per-column checks where its
   * types allow (unmarkedFits), else by parseDbJson with the scan; `helper` generated to match.
   */
  private parsed(out: Out, helper: () => string): string {
    const was = this.unmarked;
    this.unmarked = unmarkedFits(out);
    try {
      return `${helper()}(${this.unmarked ? 'JP' : 'DP'}`;
    } finally {
      this.unmarked = was;
    }
  }

  private objectHelper(o: PositionalObject, out: Out): string {
    const { of, nonNull } = nullable(out);
    const inner = objectOut(of, o.fields.map((f) => f.key));
    const body = new Code();
    this.positional(body, o, inner, 'x');
    return this.helper((name) => `function ${name}(x) { if (x === null) ${nonNull ? 'bail();' : 'return "null";'} if (!Array.isArray(x)) bail(); let s = ''; ${body.done()} return s; }`);
  }

  private listHelper(o: PositionalObject, out: Out): string {
    const { of: list, nonNull } = nullable(out);
    if (list.kind !== 'list') throw new NoWriter();
    const { of: item, nonNull: itemNonNull } = nullable(list.of);
    const inner = objectOut(item, o.fields.map((f) => f.key));
    const body = new Code();
    this.positional(body, o, inner, 'x');
    // An item of a 1:N list is never null (a row); a null would be an item the type may forbid.
    return this.helper((name) => `function ${name}(v) { if (v === null) ${nonNull ? 'bail();' : 'return "null";'} if (!Array.isArray(v)) bail(); let s = '['; for (let i = 0; i < v.length; i++) { const x = v[i]; if (i) s += ','; if (x === null) ${itemNonNull ? 'bail();' : "{ s += 'null'; continue; }"} if (!Array.isArray(x)) bail(); ${body.done()} } return s + ']'; }`);
  }

  /** The whole writer's source for this layout and shape (throws NoWriter where they do not match). */
  source(assembler: RowsAssembler, out: Out): string {
    const layout = assembler.layout;
    const root = new Code();
    let rootOut: Out;
    let nonNull: boolean;
    if (layout.many) {
      // A root list is an array, never null: only its items' type matters.
      const list = nullable(out).of;
      if (list.kind !== 'list') throw new NoWriter();
      ({ of: rootOut, nonNull } = nullable(list.of));
    } else {
      ({ of: rootOut, nonNull } = nullable(out));
    }
    if (layout.positional) {
      const o = objectOut(rootOut, layout.positional.fields.map((f) => f.key));
      const positional = layout.positional;
      // The row's JSON text (MySQL), read as a 1:N column is.
      const read = this.parsed(o, () => this.helper((name) => {
        const body = new Code();
        this.positional(body, positional, o, 'x');
        return `function ${name}(x) { if (!Array.isArray(x)) bail(); let s = ''; ${body.done()} return s; }`;
      }));
      root.raw(`if (r[0] === null) ${nonNull ? 'bail();' : "s += 'null'; else"} {`);
      root.value(`${read}(r[0]))`);
      root.raw('}');
    } else {
      this.rowObject(root, layout.fields, objectOut(rootOut, layout.fields.map((f) => f.key)), 'r');
    }
    const body = layout.many
      ? `let s = '['; for (let i = 0; i < rows.length; i++) { const r = rows[i]; if (i) s += ','; ${root.done()} if (s.length > max) return s; } return s + ']';`
      : `if (rows.length === 0) ${nonNull ? 'bail();' : "return 'null';"} const r = rows[0]; let s = ''; ${root.done()} return s;`;
    return `'use strict';\nlet n = 0;\nconst JP = (t) => (t === null ? null : JSON.parse(t));\nconst DP = (t) => (t === null ? null : parseDbJson(t));\n${this.helpers.join('\n')}\nfunction run(rows, max) { ${body} }\nreturn { objects: () => n, write(rows, max) { n = 0; try { return run(rows, max); } catch (e) { if (e === BAIL) return undefined; throw e; } } };`;
  }
}

/** Writers by their generated text: shapes that generate the same text share one compiled function. */
const compiled = new Map<string, (W: readonly Leaf[]) => RowsWriter>();
const MAX_KEPT = 2000;
/** Per assembler (one per layout text) and answer shape; null where they cannot be written this way. */
const writers = new WeakMap<RowsAssembler, WeakMap<Out, RowsWriter | null>>();

/** The generated source of a layout and shape, or undefined where they do not match (tests read it). */
export function writerSource(assembler: RowsAssembler, out: Out): string | undefined {
  return generated(assembler, out)?.source;
}

function generated(assembler: RowsAssembler, out: Out): { source: string; leaves: readonly Leaf[] } | undefined {
  const g = new Generator();
  try {
    return { source: g.source(assembler, out), leaves: g.leaves };
  } catch (e) {
    if (e instanceof NoWriter) return undefined;
    throw e;
  }
}

/** The writer of rows of `assembler`'s layout answering a field of shape `out`, or undefined. */
export function rowsWriter(assembler: RowsAssembler, out: Out): RowsWriter | undefined {
  let byOut = writers.get(assembler);
  if (!byOut) writers.set(assembler, (byOut = new WeakMap()));
  const known = byOut.get(out);
  if (known !== undefined) return known ?? undefined;
  const g = generated(assembler, out);
  let writer: RowsWriter | null = null;
  if (g) {
    let make = compiled.get(g.source);
    if (!make) {
      try {
        // eslint-disable-next-line @typescript-eslint/no-implied-eval -- generated from column positions and quoted keys only
        make = new Function('BAIL', 'bail', 'parseDbJson', 'W', g.source) as never;
      } catch (e) {
        if (!(e instanceof EvalError)) throw e;
      }
      if (make) {
        const fn = make as unknown as (b: Error, bl: () => never, p: typeof parseDbJson, W: readonly Leaf[]) => RowsWriter;
        make = (W) => fn(BAIL, bail, parseDbJson, W);
        if (compiled.size >= MAX_KEPT) compiled.clear();
        compiled.set(g.source, make);
      }
    }
    if (make) writer = make(g.leaves);
  }
  byOut.set(out, writer);
  return writer ?? undefined;
}
