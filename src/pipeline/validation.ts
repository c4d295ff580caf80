// GraphQL validation as svc runs it: graphql-js's specified rules with two changes that clients of
// the established servers rely on (issue 18 items 5 and 6), plus MAX_DEPTH.
// - `@cache(ttl: "5m")`: the directive is declared `ttl: Int` (seconds, as those servers declare it,
//   so `$ttl: Int` variables keep working); a string literal holding a duration is accepted too.
// - A Float literal beyond a double's range (`1e400`) is refused, as the same value in a variable is:
//   graphql-js parses the literal to Infinity and lets it through to the database.
// - A variable that the operation declares but only a jq program mentions (`jq(query: "... $x")`,
//   or the request's `_jq` variable) is not "never used": jq reads it as `$x` (SPEC §8).
// Apollo always runs graphql-js's full list, so svc turns Apollo's validation off and runs this one
// from a plugin (validationPlugin), cached per (schema, document) like Apollo's own.
import type { ApolloServerPlugin, GraphQLResponse } from '@apollo/server';
import { HeaderMap } from '@apollo/server';
import {
  type ASTVisitor, type DocumentNode, GraphQLError, type GraphQLFormattedError, type GraphQLSchema, Kind, NoUnusedVariablesRule,
  type FloatValueNode, getNamedType, type IntValueNode, specifiedRules, type ValidationContext, type ValidationRule, ValuesOfCorrectTypeRule,
  validate, visit,
} from 'graphql';
import { parseTtl } from '../shared/ttl.js';
import type { RequestContext } from '../executor/request-context.js';
import { planningWork } from './metrics.js';
import { PublicError } from '../shared/errors.js';
import { startSpan } from '../shared/tracing.js';
import { depthLimit } from './limits/depth-limit.js';

const VALIDATION_FAILED = 'GRAPHQL_VALIDATION_FAILED';

/** Errors of unused variables carry the variable's name, so a jq program can excuse them per request. */
const unusedName = new WeakMap<GraphQLError, string>();

/** NoUnusedVariablesRule, with each error remembering which variable it is about. */
function noUnusedVariables(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(operation) {
      const used = new Set(context.getRecursiveVariableUsages(operation).map((u) => u.node.name.value));
      for (const def of operation.variableDefinitions ?? []) {
        const name = def.variable.name.value;
        if (used.has(name)) continue;
        const error = new GraphQLError(
          operation.name ? `Variable "$${name}" is never used in operation "${operation.name.value}".` : `Variable "$${name}" is never used.`,
          { nodes: def },
        );
        unusedName.set(error, name);
        context.reportError(error);
      }
    },
  };
}

/**
 * ValuesOfCorrectTypeRule, except that `@cache(ttl:)` also takes a duration string ("30s", "5m", "1h"),
 * and a Float literal must be a finite double.
 */
function valuesOfCorrectType(context: ValidationContext): ASTVisitor {
  const inner = ValuesOfCorrectTypeRule(context) as Record<string, (...args: unknown[]) => unknown>;
  const finite = (kind: 'IntValue' | 'FloatValue') => (node: IntValueNode | FloatValueNode, ...rest: unknown[]) => {
    const type = context.getInputType();
    if (type && getNamedType(type).name === 'Float' && !Number.isFinite(Number(node.value))) {
      context.reportError(new GraphQLError(`Expected value of type "Float", found ${node.value}; it is beyond the range of a double (about ±1.8e308)`, { nodes: node }));
      return undefined;
    }
    return inner[kind]?.(node, ...rest);
  };
  return {
    ...inner,
    IntValue: finite('IntValue'),
    FloatValue: finite('FloatValue'),
    StringValue(node, ...rest) {
      if (context.getDirective()?.name !== 'cache' || context.getArgument()?.name !== 'ttl') return inner.StringValue?.(node, ...rest);
      try {
        parseTtl(node.value);
      } catch (e) {
        context.reportError(new GraphQLError(e instanceof PublicError ? e.message : String(e), { nodes: node }));
      }
      return undefined;
    },
  } as ASTVisitor;
}

/**
 * The schema declares `Subscription` (SPEC §4.5) so tools see it, but only `/subscribe` runs it (over
 * graphql-ws, src/http/subscribe/): an operation that reaches /query or an in-process client as a
 * subscription is refused here rather than run once as if it were a query.
 */
function subscriptionsOnSubscribe(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(operation) {
      if (operation.operation !== 'subscription') return;
      context.reportError(new GraphQLError('subscriptions are served over WebSocket on /subscribe (graphql-ws); send queries and mutations here', { nodes: operation }));
    },
  };
}

/** The rules svc validates every operation with (HTTP, /jq-query and in-process alike). */
export function validationRules(maxDepth: number): readonly ValidationRule[] {
  const rules: ValidationRule[] = specifiedRules.map((r) =>
    r === NoUnusedVariablesRule ? noUnusedVariables : r === ValuesOfCorrectTypeRule ? valuesOfCorrectType : r);
  rules.push(subscriptionsOnSubscribe);
  if (maxDepth > 0) rules.push(depthLimit(maxDepth));
  return rules;
}

/** The `$names` a jq program mentions. */
function jqVariableNames(program: string): Set<string> {
  return new Set([...program.matchAll(/\$([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!));
}

/** Texts of the jq programs of a document: `jq(query:)` literals, or the variables given for them. */
function jqPrograms(document: DocumentNode, variables: Readonly<Record<string, unknown>> | undefined): string[] {
  const out: string[] = [];
  visit(document, {
    Field(node) {
      if (node.name.value !== 'jq') return;
      const query = node.arguments?.find((a) => a.name.value === 'query')?.value;
      if (query?.kind === Kind.STRING) out.push(query.value);
      else if (query?.kind === Kind.VARIABLE && typeof variables?.[query.name.value] === 'string') out.push(variables[query.name.value] as string);
    },
  });
  return out;
}

const cache = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, readonly GraphQLError[]>>();

/**
 * Validates `document`; errors about variables only a jq program uses are dropped. `extraPrograms`
 * are jq programs outside the document (the request's `_jq` variable).
 */
export function validateOperation(
  schema: GraphQLSchema, document: DocumentNode, rules: readonly ValidationRule[],
  variables?: Readonly<Record<string, unknown>>, extraPrograms: readonly string[] = [],
): readonly GraphQLError[] {
  let bySchema = cache.get(schema);
  if (!bySchema) cache.set(schema, (bySchema = new WeakMap()));
  let errors = bySchema.get(document);
  if (!errors) {
    planningWork.inc({ step: 'validate' });
    const span = startSpan('graphql.validate');
    bySchema.set(document, (errors = validate(schema, document, rules)));
    if (errors.length) span.setAttribute('graphql.validation.errors', errors.length);
    span.end();
  }
  if (!errors.some((e) => unusedName.has(e))) return errors;
  const mentioned = new Set([...jqPrograms(document, variables), ...extraPrograms].flatMap((p) => [...jqVariableNames(p)]));
  return errors.filter((e) => !mentioned.has(unusedName.get(e) ?? ''));
}

/** Runs validateOperation before execution; a failing operation answers as Apollo's validation would. */
export function validationPlugin(
  rules: readonly ValidationRule[],
  format: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError,
): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async responseForOperation(rc) {
          const errors = validateOperation(rc.schema, rc.document, rules, rc.request.variables, rc.contextValue.jqPrograms);
          if (!errors.length) return null;
          const formatted = errors.map((e) => {
            const coded = e.extensions.code ? e : new GraphQLError(e.message, { nodes: e.nodes, extensions: { ...e.extensions, code: VALIDATION_FAILED } });
            return format(coded.toJSON(), coded);
          });
          // 400 as Apollo gives; src/pipeline/graphql-server.ts answers 200 unless the client asked for
          // application/graphql-response+json (SPEC §1).
          return { http: { status: 400, headers: new HeaderMap() }, body: { kind: 'single', singleResult: { errors: formatted } } } as GraphQLResponse;
        },
      };
    },
  };
}
