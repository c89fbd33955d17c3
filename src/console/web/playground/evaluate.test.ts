/**
 * The playground's engine on real inputs: a Gateway API rule on HTTPRoutes (testdata/crds/
 * gateway-api, Apache-2.0, see its README) passing and failing as the server judges it, what
 * bounds a rule's cost, transition rules, positions of compile errors and lines of input errors,
 * and the admission, device and plain environments.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { stringify } from 'yaml';
import { readYAMLDocuments } from '../../../apimachinery/index.ts';
import { runPlayground } from './evaluate.ts';
import { examples } from './examples.ts';
import { schemaNodes, schemaRules, valuesAt } from './schema-nodes.ts';

const root = new URL('../../../../', import.meta.url).pathname;
const gateway = readYAMLDocuments(readFileSync(`${root}testdata/crds/gateway-api/crds/standard-install.yaml`, 'utf8')) as { metadata?: { name?: string } }[];
const httpRoutes = stringify(gateway.find((d) => d?.metadata?.name === 'httproutes.gateway.networking.k8s.io'));
const redirectRule = '(has(self.backendRefs) && size(self.backendRefs) > 0) ? (!has(self.filters) || self.filters.all(f, !has(f.requestRedirect))): true';
const route = (rule: object) => stringify({ apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', metadata: { name: 'r' }, spec: { rules: [rule] } });

test('a Gateway API rule passes and fails on HTTPRoutes as the server would judge them', () => {
  const ok = runPlayground({ env: 'crd', expression: redirectRule, node: 'spec.rules[*]', docs: { schema: httpRoutes, object: route({ backendRefs: [{ name: 'a', port: 80 }] }) } });
  assert.equal(ok.error, undefined);
  assert.equal(ok.type, 'bool');
  assert.equal(ok.value, true);
  assert.ok(ok.runtimeCost! > 0);
  // 16 rules at most (spec.rules maxItems): the cardinality and total follow from the schema.
  assert.equal(ok.cost!.cardinality, '16');
  assert.equal(BigInt(ok.cost!.total!), BigInt(ok.cost!.max) * 16n);
  const bad = runPlayground({ env: 'crd', expression: redirectRule, node: 'spec.rules[*]', docs: { schema: httpRoutes, object: route({ backendRefs: [{ name: 'a', port: 80 }], filters: [{ type: 'RequestRedirect', requestRedirect: { scheme: 'https' } }] }) } });
  assert.equal(bad.value, false);
  assert.equal(bad.evaluations?.length, 1);
  assert.equal(bad.evaluations![0]!.path, 'spec.rules[0]');
});

test('the rules of a schema are listed with their nodes, and every node can be chosen', () => {
  const crd = readYAMLDocuments(httpRoutes)[0] as { spec: { versions: { name: string; storage?: boolean; schema: { openAPIV3Schema: object } }[] } };
  const schema = crd.spec.versions.find((v) => v.storage)!.schema.openAPIV3Schema;
  const rules = schemaRules(schema);
  assert.ok(rules.some((r) => r.node === 'spec.rules[*]' && r.rule === redirectRule));
  const nodes = schemaNodes(schema);
  assert.ok(nodes.includes('spec.rules[*].matches[*].path'));
  assert.deepEqual(valuesAt({ spec: { rules: [{ a: 1 }, { a: 2 }] } }, 'spec.rules[*].a'), [1, 2]);
  assert.deepEqual(valuesAt({ m: { x: 1, y: 2 } }, 'm.*'), [1, 2]);
});

test('what leaves a cost unbounded is named, with the keyword that would bound it', () => {
  const schema = `type: object
properties:
  spec:
    type: object
    properties:
      names: {type: array, items: {type: string}}
`;
  const r = runPlayground({ env: 'crd', expression: 'self.names.all(n, n.startsWith("a"))', node: 'spec', docs: { schema } });
  assert.equal(r.type, 'bool');
  assert.deepEqual(r.cost!.boundBy, ['would be bounded by maxItems on self.names', 'would be bounded by maxLength on self.names[*]']);
  // The example's lists carry maxItems and maxLength: nothing to add.
  assert.deepEqual(runPlayground(examples.crd).cost!.boundBy, []);
});

test('a transition rule needs the old object, and then sees it as oldSelf', () => {
  const base = { ...examples.crd, expression: 'self.replicas >= oldSelf.replicas' };
  assert.match(runPlayground(base).error!.message, /transition rule/);
  const old = examples.crd.docs.object!.replace('replicas: 3', 'replicas: 4');
  const r = runPlayground({ ...base, docs: { ...base.docs, oldObject: old } });
  assert.equal(r.value, false);
});

test('compile errors carry their position; input errors their document and line', () => {
  const c = runPlayground({ ...examples.crd, expression: 'self.replicas <= self.nope' });
  assert.equal(c.error!.stage, 'compile');
  assert.match(c.error!.message, /undefined field 'nope'/);
  assert.deepEqual(c.error!.position, { line: 1, column: 22 });
  const notBool = runPlayground({ ...examples.crd, expression: 'self.replicas' });
  assert.match(notBool.error!.message, /must evaluate to a bool/);
  const i = runPlayground({ ...examples.crd, docs: { ...examples.crd.docs, object: 'spec:\n  replicas: 1\n bad: [\n' } });
  assert.equal(i.error!.stage, 'input');
  assert.equal(i.error!.input, 'object');
  assert.equal(typeof i.error!.line, 'number');
  assert.match(runPlayground({ ...examples.crd, node: 'spec.nothing' }).error!.message, /no node at "spec.nothing"/);
});

test('the admission, mutation, device and plain environments evaluate their examples', () => {
  assert.deepEqual(pick(runPlayground(examples.vap)), { type: 'bool', value: true });
  assert.deepEqual(pick(runPlayground(examples.map)), { type: 'Object', value: { spec: { replicas: 4 } } });
  assert.deepEqual(pick(runPlayground(examples.dra)), { type: 'bool', value: true });
  assert.deepEqual(pick(runPlayground(examples.plain)), { type: 'list(dyn)', value: [4, 6] });
  assert.match(runPlayground({ ...examples.dra, expression: 'device.driver' }).error!.message, /must evaluate to bool/);
  // Unbounded inputs: the estimate says so.
  assert.match(runPlayground(examples.plain).cost!.boundBy[0]!, /^nothing: the inputs have no declared sizes/);
  assert.equal(runPlayground({ ...examples.plain, expression: '1 / 0' }).error!.message, 'division by zero');
});

function pick(r: ReturnType<typeof runPlayground>): { type?: string; value?: unknown } {
  assert.equal(r.error, undefined, r.error?.message);
  return { type: r.type, value: r.value };
}
