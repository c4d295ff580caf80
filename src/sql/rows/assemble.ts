// The assembler of a rows statement: JavaScript generated from its layout, once per shape, that
// builds the answer objects straight from the rows (no per-field interpretation per row, nothing
// built per row but the answer). The generated text holds column positions and response keys only
// (as JSON string literals), never a value of a request.
import { parseDbJson } from '../../shared/json.js';
import type { RowsAssembler } from '../compiler.js';
import type { PositionalObject, RowField, RowValue, RowsLayout } from './layout.js';

/** Assemblers by their generated text: plans of one shape share one compiled function. */
const compiled = new Map<string, RowsAssembler>();
const MAX_KEPT = 2000;

/** `"key": ` of an object literal; `__proto__` as a computed key makes an own property, as JSON.parse does. */
function keyOf(key: string): string {
  return key === '__proto__' ? `["__proto__"]: ` : `${JSON.stringify(key)}: `;
}

class Generator {
  private readonly helpers: string[] = [];

  /** A helper function named after its position, returning its name. */
  private helper(body: (name: string) => string): string {
    const at = this.helpers.push('') - 1;
    const name = `h${at}`;
    this.helpers[at] = body(name);
    return name;
  }

  /** An object written as a JSON array `x`, whose nested levels are helpers of their own. */
  private positional(o: PositionalObject, x: string): string {
    const values = o.fields.map((f, i) => {
      const v = `${x}[${i}]`;
      if (f.kind === 'value') return `${keyOf(f.key)}${v}`;
      return `${keyOf(f.key)}${f.kind === 'object' ? this.objectHelper(f.of) : this.listHelper(f.of)}(${v})`;
    });
    return `{${values.join(', ')}}`;
  }

  objectHelper(o: PositionalObject): string {
    return this.helper((name) => `function ${name}(x) { return x === null ? null : ${this.positional(o, 'x')}; }`);
  }

  listHelper(o: PositionalObject): string {
    return this.helper((name) =>
      `function ${name}(v) { if (v === null) return null; const out = []; for (let i = 0; i < v.length; i++) { const x = v[i]; out.push(${this.positional(o, 'x')}); } return out; }`);
  }

  rowObject(fields: readonly RowField[], r: string): string {
    return `{${fields.map((f) => `${keyOf(f.key)}${this.value(f.value, r)}`).join(', ')}}`;
  }

  private value(v: RowValue, r: string): string {
    switch (v.kind) {
      case 'column':
        return `${r}[${v.index}]`;
      case 'const':
        return JSON.stringify(v.value);
      case 'object':
        return `((${r}[${v.present}] & ${v.bit}) === 0 ? null : ${this.rowObject(v.fields, r)})`;
      case 'children':
        return `${this.listHelper(v.rows)}(P(${r}[${v.index}]))`;
      case 'arrays':
        return `${this.arraysHelper(v)}(${r})`;
    }
  }

  /** The objects of a 1:N level of values from its arrays (one per field, the first read decides: null without rows). */
  private arraysHelper(v: Extract<RowValue, { kind: 'arrays' }>): string {
    const columns = v.fields.flatMap((f) => (f.value.kind === 'column' ? [f.value.index] : []));
    const object = v.fields.map((f) => `${keyOf(f.key)}${f.value.kind === 'column' ? `a${f.value.index}[i]` : JSON.stringify(f.value.value)}`).join(', ');
    return this.helper((name) =>
      `function ${name}(r) { ${columns.map((c) => `const a${c} = r[${c}];`).join(' ')} if (a${columns[0]} === null) return ${v.emptyAsNull ? 'null' : '[]'}; const out = []; for (let i = 0; i < a${columns[0]}.length; i++) out.push({${object}}); return out; }`);
  }

  source(layout: RowsLayout): string {
    const object = layout.positional ? `${this.objectHelper(layout.positional)}(P(r[0]))` : this.rowObject(layout.fields, 'r');
    const body = layout.many
      ? `const out = []; for (let i = 0; i < rows.length; i++) { const r = rows[i]; out.push(${object}); } return out;`
      : `if (rows.length === 0) return null; const r = rows[0]; return ${object};`;
    // P: JSON text (a 1:N column, a MySQL row) read with its big integers exact; null stays null.
    return `'use strict';\nconst P = (t) => (t === null ? null : parse(t));\n${this.helpers.join('\n')}\nreturn function assemble(rows) { ${body} };`;
  }
}

/** The generated JavaScript of a layout (tests read it). */
export function assemblerSource(layout: RowsLayout): string {
  return new Generator().source(layout);
}

/**
 * The assembler of a layout, compiled once per distinct shape; undefined where the process may not
 * compile code from strings (`node --disallow-code-generation-from-strings`): the read is then
 * compiled as one JSON document.
 */
export function assembler(layout: RowsLayout): RowsAssembler | undefined {
  const source = assemblerSource(layout);
  let fn = compiled.get(source);
  if (!fn) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-implied-eval -- generated from column positions and quoted keys only
      fn = Object.assign(new Function('parse', source)(parseDbJson) as (rows: readonly (readonly unknown[])[]) => unknown, { layout });
    } catch (e) {
      if (e instanceof EvalError) return undefined;
      throw e;
    }
    // A bound for a server whose operations keep changing shape; the plan cache keeps its own references.
    if (compiled.size >= MAX_KEPT) compiled.clear();
    compiled.set(source, fn);
  }
  return fn;
}
