/**
 * Upstream's patcher tables (mutating/patch/smd_test.go and json_patch_test.go) run as data over Deployments typed with
 * apps/v1's merge schema, plus JSONPatch's `test` rule: a failing test leaves the object as it was.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { builtinTypeConverter } from '../../../registry/index.ts';
import { PolicyMutator } from './mutator.ts';

interface Case {
  name: string;
  patchType: 'ApplyConfiguration' | 'JSONPatch';
  expression: string;
  object: Record<string, unknown>;
  oldObject?: Record<string, unknown>;
  expected?: Record<string, unknown>;
  expectedErr?: string;
}
interface Suite {
  cases: Case[];
  /** Case name -> why it does not run here. */
  skip?: Record<string, string>;
}
const load = (file: string) => JSON.parse(readFileSync(new URL(`../../../../testdata/k8s/admission/mutating/${file}`, import.meta.url), 'utf8')) as Suite;
const tc = builtinTypeConverter('apps', 'v1');
const request = { operation: 'CREATE' };

const mutation = (c: Pick<Case, 'patchType' | 'expression'>) =>
  c.patchType === 'JSONPatch' ? { patchType: 'JSONPatch', jsonPatch: { expression: c.expression } } : { patchType: 'ApplyConfiguration', applyConfiguration: { expression: c.expression } };

for (const [file, min] of [['smd.json', 10], ['json-patch.json', 27]] as const) {
  test(`${file}: upstream's patcher table`, async (t) => {
    const suite = load(file);
    assert.ok(suite.cases.length >= min, `expected at least ${min} cases, got ${suite.cases.length}`);
    let skipped = 0;
    for (const c of suite.cases) {
      const reason = suite.skip?.[c.name];
      if (reason !== undefined) {
        skipped++;
        await t.test(c.name, { skip: reason }, () => {});
        continue;
      }
      await t.test(c.name, () => {
        const m = new PolicyMutator({ mutations: [mutation(c)] });
        const r = m.mutate({ object: c.object, oldObject: c.oldObject ?? null, request }, tc);
        assert.equal(r.matched, true);
        if (c.expectedErr !== undefined) {
          assert.ok(r.error?.includes(c.expectedErr), `error ${r.error} should contain ${c.expectedErr}`);
          return;
        }
        assert.equal(r.error, undefined);
        assert.deepEqual(r.matched && r.object, c.expected);
      });
    }
    console.log(`${file}: ${suite.cases.length - skipped} run, ${skipped} skipped`);
  });
}

test('JSONPatch: a failing test op skips the whole patch; a passing one applies it', () => {
  const expr = (v: number) => `[JSONPatch{op: "test", path: "/spec/replicas", value: ${v}}, JSONPatch{op: "replace", path: "/spec/replicas", value: 9}]`;
  const object = { spec: { replicas: 2 } };
  const skip = new PolicyMutator({ mutations: [mutation({ patchType: 'JSONPatch', expression: expr(5) })] }).mutate({ object, oldObject: null, request }, tc);
  assert.deepEqual(skip, { matched: true, object });
  const apply = new PolicyMutator({ mutations: [mutation({ patchType: 'JSONPatch', expression: expr(2) })] }).mutate({ object, oldObject: null, request }, tc);
  assert.deepEqual(apply, { matched: true, object: { spec: { replicas: 9 } } });
});

test('JSONPatch: other failures refuse with the patch error', () => {
  const r = new PolicyMutator({ mutations: [mutation({ patchType: 'JSONPatch', expression: `[JSONPatch{op: "remove", path: "/spec/missing"}]` })] }).mutate({ object: { spec: {} }, oldObject: null, request }, tc);
  assert.ok(r.error?.startsWith('JSON Patch: '), String(r.error));
});

test('matchConditions: false skips the policy, mutations see each other', () => {
  const spec = (cond: string) => ({
    matchConditions: [{ name: 'c', expression: cond }],
    mutations: [
      mutation({ patchType: 'ApplyConfiguration', expression: `Object{metadata: Object.metadata{labels: {"a": "1"}}}` }),
      mutation({ patchType: 'JSONPatch', expression: `[JSONPatch{op: "add", path: "/metadata/labels/b", value: object.metadata.labels["a"] + "2"}]` }),
    ],
  });
  const object = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' } };
  assert.deepEqual(new PolicyMutator(spec('false')).mutate({ object, oldObject: null, request }, tc), { matched: false });
  const r = new PolicyMutator(spec('true')).mutate({ object, oldObject: null, request }, tc);
  assert.deepEqual(r.matched && r.object, { ...object, metadata: { name: 'd', labels: { a: '1', b: '12' } } });
});
