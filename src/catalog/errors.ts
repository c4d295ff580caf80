import type { ASTNode } from 'graphql';
import { ErrorCode, PublicError } from '../shared/errors.js';
import type { Location } from './model.js';

export function locOf(node: ASTNode | undefined, fallbackFile: string): Location {
  const loc = node?.loc;
  if (!loc) return { file: fallbackFile, line: 0 };
  const line = loc.source.body.slice(0, loc.start).split('\n').length;
  return { file: loc.source.name, line };
}

export const where = (loc: Location): string => `(${loc.file}:${loc.line})`;

/** All problems of one catalog compilation, reported together. */
export class CatalogError extends PublicError {
  constructor(readonly problems: readonly string[]) {
    super(ErrorCode.CatalogInvalid, problems.join('; '));
    this.name = 'CatalogError';
  }
}
