// What a rows statement returns (src/sql/rows/compiler.ts) and where each answer value sits in a
// row: the assembler (assemble.ts) is generated from this description, once per shape.

/** How one value of an answer object is read from a row. */
export type RowValue =
  /** A column of the row, as the source's driver reads it (src/sql/pg/row-values.ts). */
  | { readonly kind: 'column'; readonly index: number }
  /** The same value in every row (`__typename`). */
  | { readonly kind: 'const'; readonly value: string | number | boolean | null }
  /**
   * A to-one relation joined into the row: null when its bit of the presence column `present` is
   * clear (no related row). One int column holds the bits of up to 30 relations of the row.
   */
  | { readonly kind: 'object'; readonly present: number; readonly bit: number; readonly fields: readonly RowField[] }
  /** A 1:N relation: one column holding its rows as JSON text, arrays of values in field order. */
  | { readonly kind: 'children'; readonly index: number; readonly rows: PositionalObject }
  /**
   * A 1:N relation of values only: one column per field, each an array of that field's values over
   * the related rows in order (all null without rows); a constant field is the same in every row.
   */
  | { readonly kind: 'arrays'; readonly fields: readonly ArrayField[]; readonly emptyAsNull: boolean };

/** A field of an `arrays` level: the column of its values (at least one field has one), or its constant. */
export interface ArrayField {
  readonly key: string;
  readonly value: { readonly kind: 'column'; readonly index: number } | { readonly kind: 'const'; readonly value: string | number | boolean | null };
}

export interface RowField {
  readonly key: string;
  readonly value: RowValue;
}

/** An object written as a JSON array: field i is the value at position i. */
export interface PositionalObject {
  readonly fields: readonly PositionalField[];
}

export type PositionalField =
  | { readonly kind: 'value'; readonly key: string }
  | { readonly kind: 'object' | 'list'; readonly key: string; readonly of: PositionalObject };

export interface RowsLayout {
  /** A list (every row is an item) or one object (the first row, null without rows). */
  readonly many: boolean;
  readonly fields: readonly RowField[];
  /** Instead of `fields`: each row's first column holds its object as the JSON text of a positional array (MySQL). */
  readonly positional?: PositionalObject;
}
