/**
 * `crd-apiserver cel cost`: the per-rule report (cost, cardinality, share of the CRD budget, the
 * bounds that are missing) and the exit status for CRDs kube-apiserver would reject.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { celCostReport, runCelCost } from './cel-cost.ts';

const crd = (listSchema: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              names:
${listSchema}
`;

const unbounded = crd(`                type: array
                items: {type: string}
                x-kubernetes-validations:
                - rule: "self.all(x, self.exists(y, x == y))"
                - rule: "self.all(x, x.startsWith('a'))"
                  messageExpression: "'bad: ' + self[0]"`);

const bounded = crd(`                type: array
                maxItems: 10
                items: {type: string, maxLength: 20}
                x-kubernetes-validations:
                - rule: "self.all(x, x.startsWith('a'))"`);

test('report lists each expression with its cost, share and missing bounds', () => {
  const r = celCostReport(unbounded);
  assert.equal(r.rules.length, 3);
  const quadratic = r.rules.find((x) => x.path.endsWith('x-kubernetes-validations[0].rule'))!;
  assert.equal(quadratic.crd, 'widgets.example.com');
  assert.equal(quadratic.version, 'v1');
  assert.deepEqual(quadratic.boundBy, ['maxItems on self', 'maxLength on self[*]']);
  assert.ok(BigInt(quadratic.cost) > 10_000_000n);
  assert.ok(quadratic.share > 10);
  const message = r.rules.find((x) => x.path.endsWith('messageExpression'))!;
  assert.equal(message.rule, "'bad: ' + self[0]");
  // the quadratic rule is forbidden, with Kubernetes' message
  assert.ok(
    r.errors.some((e) =>
      e.includes('spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[names].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x'),
    ),
    r.errors.join('\n'),
  );
});

test('bounded schemas report the exact cost and no missing bounds', () => {
  const r = celCostReport(bounded);
  assert.equal(r.rules.length, 1);
  const rule = r.rules[0]!;
  assert.deepEqual(rule.boundBy, []);
  assert.equal(rule.cardinality, '1');
  assert.equal(r.errors.length, 0);
  assert.equal(BigInt(rule.cost), BigInt(rule.perCallCost));
  assert.equal(r.totals[0]!.total, BigInt(rule.cost));
});

test('exit status: 0 accepted, 1 rejected, 2 usage', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cel-cost-'));
  const good = join(dir, 'good.yaml');
  const bad = join(dir, 'bad.yaml');
  writeFileSync(good, bounded);
  writeFileSync(bad, unbounded);
  const write = process.stdout.write;
  let printed = '';
  process.stdout.write = ((s: string) => {
    printed += s;
    return true;
  }) as typeof process.stdout.write;
  const stderr = process.stderr.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    assert.equal(runCelCost(['--crd', good]), 0);
    assert.match(printed, /widgets\.example\.com \(version v1\): 1 expressions, estimated total cost \d+/);
    printed = '';
    assert.equal(runCelCost(['cost', '--crd', bad]), 1);
    assert.match(printed, /would be bounded by: maxItems on self; maxLength on self\[\*\]/);
    assert.match(printed, /OVER THE PER-EXPRESSION LIMIT/);
    assert.equal(runCelCost([]), 2);
  } finally {
    process.stdout.write = write;
    process.stderr.write = stderr;
  }
});
