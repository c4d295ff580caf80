// GraphQL list results as Arrow (SPEC §13): the Arrow schema comes from the field's GraphQL type and
// the client's selection, so a streamed list and one held in memory come out alike, and rows are
// turned into record batches a batch at a time.
import {
  Binary, Bool, DataType, DateDay, Field, Float64, Int32, Int64, List, makeBuilder, makeData, RecordBatch, RecordBatchStreamWriter, Schema,
  Struct, TimestampMillisecond, Utf8,
} from 'apache-arrow';
import { AsyncByteQueue } from 'apache-arrow/io/stream';
import {
  type FragmentDefinitionNode, getNamedType, getNullableType, type GraphQLField, GraphQLList, type GraphQLOutputType, isCompositeType, isListType,
  isObjectType, Kind, type SelectionSetNode,
} from 'graphql';
import { wkx } from '../../shared/geo/codec.js';
import { stringifyJson } from '../../shared/json.js';

/** One Arrow column: its name, type, and how a JSON value of the GraphQL answer becomes its value. */
export interface Column {
  readonly name: string;
  readonly type: DataType;
  readonly convert: (value: unknown) => unknown;
}

export type Fragments = Readonly<Record<string, FragmentDefinitionNode>>;

const text = (v: unknown): unknown => (v === null || v === undefined ? null : typeof v === 'string' ? v : stringifyJson(v));
const time = (v: unknown): unknown => (v === null || v === undefined ? null : typeof v === 'number' ? v : Date.parse(String(v)));
const big = (v: unknown): unknown => (v === null || v === undefined ? null : BigInt(v as string | number | bigint));
const num = (v: unknown): unknown => (v === null || v === undefined ? null : Number(v));
const same = (v: unknown): unknown => (v === undefined ? null : v);

/** Geometry as WKB (SPEC §13); the answer holds GeoJSON (an object, or its text). */
function wkb(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  const g = typeof v === 'string' ? (v.trimStart().startsWith('{') ? wkx().Geometry.parseGeoJSON(JSON.parse(v)) : wkx().Geometry.parse(v)) : wkx().Geometry.parseGeoJSON(v as object);
  return new Uint8Array(g.toWkb());
}

/** Scalars by GraphQL name; anything else (JSON, ranges, intervals, custom scalars) is text. */
const SCALARS: Readonly<Record<string, () => { type: DataType; convert: (v: unknown) => unknown }>> = {
  Int: () => ({ type: new Int32(), convert: num }),
  BigInt: () => ({ type: new Int64(), convert: big }),
  Float: () => ({ type: new Float64(), convert: num }),
  Boolean: () => ({ type: new Bool(), convert: same }),
  String: () => ({ type: new Utf8(), convert: text }),
  ID: () => ({ type: new Utf8(), convert: text }),
  Timestamp: () => ({ type: new TimestampMillisecond('UTC'), convert: time }),
  DateTime: () => ({ type: new TimestampMillisecond('UTC'), convert: time }),
  Date: () => ({ type: new DateDay(), convert: time }),
  Geometry: () => ({ type: new Binary(), convert: wkb }),
};

/** The column of one GraphQL output type (lists and objects nest as Arrow lists and structs). */
function columnOf(name: string, type: GraphQLOutputType, selection: SelectionSetNode | undefined, fragments: Fragments): Column {
  const t = getNullableType(type);
  if (isListType(t)) {
    const item = columnOf('item', t.ofType as GraphQLOutputType, selection, fragments);
    const convert = (v: unknown) => (Array.isArray(v) ? v.map(item.convert) : null);
    return { name, type: new List(new Field('item', item.type, true)), convert };
  }
  if (isCompositeType(t)) {
    const children = isObjectType(t) && selection ? columnsOf(t.getFields(), selection, fragments) : [];
    if (!children.length) return { name, type: new Utf8(), convert: text };
    const convert = (v: unknown) => {
      if (v === null || v === undefined || typeof v !== 'object') return null;
      const o = v as Record<string, unknown>;
      return Object.fromEntries(children.map((c) => [c.name, c.convert(o[c.name])]));
    };
    return { name, type: new Struct(children.map((c) => new Field(c.name, c.type, true))), convert };
  }
  const scalar = SCALARS[getNamedType(t).name]?.() ?? { type: new Utf8(), convert: text };
  return { name, ...scalar };
}

/** The columns of a selection on an object type, by response key, fragments flattened. */
export function columnsOf(fields: Readonly<Record<string, GraphQLField<unknown, unknown>>>, selection: SelectionSetNode, fragments: Fragments): Column[] {
  const out = new Map<string, Column>();
  const visit = (set: SelectionSetNode) => {
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) {
        const key = s.alias?.value ?? s.name.value;
        if (out.has(key)) continue;
        const def = fields[s.name.value];
        out.set(key, def ? columnOf(key, def.type, s.selectionSet, fragments) : { name: key, type: new Utf8(), convert: text });
      } else if (s.kind === Kind.INLINE_FRAGMENT) visit(s.selectionSet);
      else {
        const f = fragments[s.name.value];
        if (f) visit(f.selectionSet);
      }
    }
  };
  visit(selection);
  return [...out.values()];
}

/** Columns of a list field's items: the object's columns, or one `value` column for a list of scalars. */
export function listColumns(type: GraphQLOutputType, selection: SelectionSetNode | undefined, fragments: Fragments): Column[] {
  let item = getNullableType(type);
  while (isListType(item)) item = getNullableType((item as GraphQLList<GraphQLOutputType>).ofType);
  if (isObjectType(item) && selection) return columnsOf(item.getFields(), selection, fragments);
  return [columnOf('value', item as GraphQLOutputType, selection, fragments)];
}

/** Bytes the Arrow writer produced since the last `take`: the writer never buffers a whole result. */
class Collected extends AsyncByteQueue {
  private chunks: Uint8Array[] = [];
  override write(value: Uint8Array): void {
    if (value.byteLength) this.chunks.push(value);
  }
  take(): Uint8Array[] {
    const c = this.chunks;
    this.chunks = [];
    return c;
  }
}

/** An Arrow IPC stream written batch by batch; each call returns the bytes to send. */
export class ArrowStream {
  private readonly schema: Schema;
  private readonly sink = new Collected();
  private readonly writer = new RecordBatchStreamWriter();
  private readonly object: boolean;

  constructor(private readonly columns: readonly Column[], objectRows: boolean) {
    this.schema = new Schema(columns.map((c) => new Field(c.name, c.type, true)));
    this.writer.reset(this.sink as never, this.schema);
    this.object = objectRows;
  }

  /** One record batch of rows (objects of the answer, or scalars for a `value` column). */
  batch(rows: readonly unknown[]): Uint8Array[] {
    if (!rows.length) return [];
    const children = this.columns.map((c) => {
      const b = makeBuilder({ type: c.type, nullValues: [null, undefined] });
      for (const r of rows) b.append(c.convert(this.object ? (r as Record<string, unknown> | null)?.[c.name] : r));
      return b.finish().flush();
    });
    this.writer.write(new RecordBatch(this.schema, makeData({ type: new Struct(this.schema.fields), length: rows.length, nullCount: 0, children })));
    return this.sink.take();
  }

  /** The end-of-stream marker (and the schema, when no batch was written). */
  finish(): Uint8Array[] {
    this.writer.finish();
    return this.sink.take();
  }
}
