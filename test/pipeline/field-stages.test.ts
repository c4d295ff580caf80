// Field stages are Nest providers (issue 16): a team's module adds one with @FieldStageProvider(),
// and it wraps every root field (reads, writes, functions) after svc's own, seeing the caller.
import { Injectable, Module } from '@nestjs/common';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type FieldCall, type FieldStage, FieldStageProvider } from '../../src/pipeline/field-stage.js';
import { startApp, type TestApp } from '../support/app.js';

@FieldStageProvider()
@Injectable()
class AuditStage implements FieldStage {
  readonly seen: string[] = [];

  async intercept(call: FieldCall, next: () => Promise<unknown>): Promise<unknown> {
    this.seen.push(`${call.info.fieldName}:${call.target.kind}:${call.ctx.identity.role}:${call.ctx.timezone}`);
    return next();
  }
}

/** Answers one field itself, without the database: a stage may short-circuit. */
@FieldStageProvider({ order: 1 })
@Injectable()
class FrozenTags implements FieldStage {
  async intercept(call: FieldCall, next: () => Promise<unknown>): Promise<unknown> {
    if (call.info.fieldName === 'shop_tags' && call.info.path.key === 'frozen') return [{ name: 'frozen' }];
    return next();
  }
}

@Module({ providers: [AuditStage, FrozenTags] })
class TeamStages {}

let t: TestApp;
beforeAll(async () => {
  t = await startApp({ SECRET_KEY: 'k' }, [TeamStages]);
});
afterAll(() => t?.close());

it('a team stage sees every root field with its caller, and may answer one itself', async () => {
  const audit = t.app.get(AuditStage);
  const r = await t.gql('{ shop_tags_by_pk(id: 2) { name } frozen: shop_tags { name } }', undefined, { 'x-svc-secret-key': 'k', 'x-svc-timezone': 'Europe/Berlin' });
  expect(r.body.errors).toBeUndefined();
  expect(r.body.data).toEqual({ shop_tags_by_pk: { name: 'bestseller' }, frozen: [{ name: 'frozen' }] });
  expect(audit.seen).toEqual(expect.arrayContaining(['shop_tags_by_pk:read:admin:Europe/Berlin', 'shop_tags:read:admin:Europe/Berlin']));
});
