// Field stages: what happens around a root field's resolution (the result cache, @stats, a team's
// own), in the shape of a Nest interceptor: `intercept(call, next)`. They are Nest providers: a
// class marked `@FieldStageProvider()` in any module is found at start (FieldStageDiscovery) and
// wraps every root field after svc's own stages. resolvers/ then only does
// root field -> planner -> SQL -> executor.
//
// Two steps of the request are not field stages, by design: the permission check runs on every
// field at every depth, so it is a synchronous guard on each resolver (stages/permission.ts), not
// an async wrapper per nested value; jq() fields transform the complete result, which exists only
// after execution, so jq is a request-level stage (an Apollo plugin, src/jq/apollo-plugin.ts).
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { GraphQLResolveInfo } from 'graphql';
import type { DataObject } from '../catalog/model.js';
import type { RequestContext } from '../executor/request-context.js';

/** What a root field is, for the stages that care (the cache reads its default rule and tags). */
export interface RootFieldTarget {
  /** `read`: a data read; `write`: insert/update/delete; `function`: a catalog function. */
  readonly kind: 'read' | 'write' | 'function';
  /** `@cache` on the object's type or the function, when declared. */
  readonly cacheDefault?: DataObject['cache'];
  /** Tags every cached answer of this field carries (a function's source). */
  readonly tags: readonly string[];
  /** The served schema's version (part of cache keys). */
  readonly schemaVersion: number;
}

export interface FieldCall {
  readonly source: unknown;
  readonly args: Record<string, unknown>;
  readonly ctx: RequestContext;
  readonly info: GraphQLResolveInfo;
  readonly target: RootFieldTarget;
  /** Data objects the resolution read (a stage may collect them per call; the context gets them too). */
  readonly reads: Set<string>;
  /** Set when the field is timed (`@stats`): the resolver adds its planning and compiling to it. */
  phases?: FieldPhases;
}

/** Where a root field's time went, in nanoseconds (`@stats`, src/pipeline/stages/stats.stage.ts). */
export class FieldPhases {
  planning = 0;
  compile = 0;
  /** Spent before the field stages ran (a function call is planned before them): part of the node's time. */
  ahead = 0;

  /** Runs `fn`, adding its time to `phase`. */
  time<T>(phase: 'planning' | 'compile', fn: () => T): T {
    const started = performance.now();
    try {
      return fn();
    } finally {
      this[phase] += Math.round((performance.now() - started) * 1e6);
    }
  }
}

export interface FieldStage {
  /** Runs `next()` (the rest of the chain, then the resolver) or answers without it. */
  intercept(call: FieldCall, next: () => Promise<unknown>): Promise<unknown>;
}

/** Marks a Nest provider as a field stage; `order` sorts team stages among themselves (default 0). */
export const FieldStageProvider = DiscoveryService.createDecorator<{ order?: number }>();

/** The stages of the served schema, outermost first; resolvers read it per call. */
export class FieldStages {
  private stages: readonly FieldStage[];

  constructor(builtIn: readonly FieldStage[]) {
    this.stages = builtIn;
  }

  add(stage: FieldStage): void {
    this.stages = [...this.stages, stage];
  }

  /** Runs `resolve` inside every stage. */
  run(call: FieldCall, resolve: (call: FieldCall) => Promise<unknown>): Promise<unknown> {
    const stages = this.stages;
    const step = (i: number): Promise<unknown> => (i < stages.length ? stages[i]!.intercept(call, () => step(i + 1)) : resolve(call));
    return step(0);
  }
}

/** Finds the providers marked `@FieldStageProvider()` in every module and adds them, in order. */
@Injectable()
export class FieldStageDiscovery implements OnModuleInit {
  constructor(
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Inject(FieldStages) private readonly stages: FieldStages,
  ) {}

  onModuleInit(): void {
    const found = this.discovery
      .getProviders({ metadataKey: FieldStageProvider.KEY })
      .filter((w) => w.instance && typeof (w.instance as FieldStage).intercept === 'function')
      .map((w) => ({ stage: w.instance as FieldStage, order: this.discovery.getMetadataByDecorator(FieldStageProvider, w)?.order ?? 0 }))
      .sort((a, b) => a.order - b.order);
    for (const { stage } of found) this.stages.add(stage);
  }
}
