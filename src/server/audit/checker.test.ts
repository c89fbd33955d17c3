/**
 * The policy evaluator against upstream's checker tables (testdata/k8s-audit/checker.json), and
 * policy loading against the validation cases (testdata/k8s-audit/validation.json).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { policyRuleEvaluator, unionStages, type AuditAttributes } from './checker.ts';
import { loadPolicyFile, parsePolicy, validatePolicy, type Policy, type PolicyRule, type Stage } from './policy.ts';
import { aggregateString } from '../../apimachinery/index.ts';

const load = (f: string) => JSON.parse(readFileSync(new URL(`../../../testdata/k8s-audit/${f}`, import.meta.url), 'utf8'));

const checker = load('checker.json') as {
  attributes: Record<string, AuditAttributes>;
  rules: Record<string, PolicyRule>;
  cases: Array<{ request: string; rules: string[]; policyOmitStages: Stage[]; level: string; omitStages: Stage[] }>;
  omitManagedFields: Array<{ name: string; policy: boolean; rule: boolean | null; want: boolean }>;
};

test('EvaluatePolicyRule: checker_test.go TestChecker and TestCheckerPolicyOmitStages', () => {
  assert.ok(checker.cases.length >= 100);
  for (const c of checker.cases) {
    const policy: Policy = { rules: c.rules.map((n) => checker.rules[n]!), omitStages: c.policyOmitStages };
    const got = policyRuleEvaluator(policy)(checker.attributes[c.request]!);
    const what = `${c.request} ${c.rules.join(',')} (policy omitStages ${c.policyOmitStages.join(',')})`;
    assert.equal(got.level, c.level, what);
    assert.deepEqual([...got.omitStages].sort(), [...c.omitStages].sort(), what);
  }
});

test('EvaluatePolicyRule: TestOmitManagedFields', () => {
  assert.equal(checker.omitManagedFields.length, 4);
  for (const c of checker.omitManagedFields) {
    const rule: PolicyRule = { level: 'RequestResponse', verbs: ['get'], ...(c.rule !== null ? { omitManagedFields: c.rule } : {}) };
    const got = policyRuleEvaluator({ rules: [rule], ...(c.policy ? { omitManagedFields: true } : {}) })({ verb: 'get', resourceRequest: false, path: '' });
    assert.equal(got.omitManagedFields, c.want, c.name);
  }
});

test('unionStages: TestUnionStages', () => {
  assert.deepEqual(unionStages([], []), []);
  assert.deepEqual(unionStages(['RequestReceived'], []), ['RequestReceived']);
  assert.deepEqual(unionStages(['RequestReceived', 'RequestReceived'], ['RequestReceived']), ['RequestReceived']);
  assert.deepEqual(unionStages(['RequestReceived', 'ResponseStarted'], ['Panic', 'RequestReceived']), ['RequestReceived', 'ResponseStarted', 'Panic']);
  assert.deepEqual(unionStages(undefined, ['RequestReceived']), ['RequestReceived']);
});

const validation = load('validation.json') as {
  valid: Policy[];
  invalid: Array<{ policy: Policy; error: string }>;
};

test('ValidatePolicy: validation_test.go, with the messages of validation.go', () => {
  assert.ok(validation.valid.length >= 8);
  assert.ok(validation.invalid.length >= 14);
  for (const p of validation.valid) assert.deepEqual(validatePolicy(p), [], JSON.stringify(p));
  for (const c of validation.invalid) assert.equal(aggregateString(validatePolicy(c.policy)), c.error, JSON.stringify(c.policy));
});

test('LoadPolicyFromFile: YAML or JSON, strict then lenient, upstream messages', () => {
  const dir = mkdtempSync(join(tmpdir(), 'audit-policy-'));
  try {
    const file = (name: string, text: string) => {
      const p = join(dir, name);
      writeFileSync(p, text);
      return p;
    };
    const yaml = file('p.yaml', 'apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [RequestReceived]\nrules:\n- level: Metadata\n  resources: [{group: "", resources: [secrets]}]\n');
    assert.deepEqual(loadPolicyFile(yaml), { rules: [{ level: 'Metadata', resources: [{ group: '', resources: ['secrets'] }] }], omitStages: ['RequestReceived'] });
    const json = file('p.json', JSON.stringify({ apiVersion: 'audit.k8s.io/v1', kind: 'Policy', rules: [{ level: 'None' }] }));
    assert.equal(loadPolicyFile(json).rules[0]!.level, 'None');
    const warnings: string[] = [];
    const lenient = file('l.yaml', 'apiVersion: audit.k8s.io/v1\nkind: Policy\nbogus: 1\nrules:\n- level: Metadata\n  nope: x\n');
    assert.equal(loadPolicyFile(lenient, (w) => warnings.push(w)).rules.length, 1);
    assert.deepEqual(warnings, ['Audit policy contains errors, falling back to lenient decoding: strict decoding error: unknown field "bogus", unknown field "rules[0].nope"']);

    const missing = join(dir, 'none.yaml');
    assert.throws(() => loadPolicyFile(missing), { message: `loading audit policy file: failed to read file path "${missing}": open ${missing}: no such file or directory` });
    const empty = file('e.yaml', 'apiVersion: audit.k8s.io/v1\nkind: Policy\n');
    assert.throws(() => loadPolicyFile(empty), { message: `loading audit policy file: loaded illegal policy with 0 rules: from file ${empty}` });
    const bad = file('b.yaml', 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- verbs: [get]\n- level: Everything\n');
    assert.throws(() => loadPolicyFile(bad), {
      message: `loading audit policy file: [rules[0].level: Required value, rules[1].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"]: from file ${bad}`,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.throws(() => parsePolicy('kind: Policy\nrules: []\n'), /^Error: failed decoding: Object 'apiVersion' is missing in '\{"kind":"Policy","rules":\[\]\}'$/);
  assert.throws(() => parsePolicy('apiVersion: audit.k8s.io/v1\nrules: []\n'), /failed decoding: Object 'Kind' is missing/);
  assert.throws(() => parsePolicy('apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules: [{level: None}]\n'), /no kind "Policy" is registered for version "audit.k8s.io\/v1beta1"/);
  // Nulls decode as Go's zero values; wrong types are the decoder's errors, never a crash.
  const head = 'apiVersion: audit.k8s.io/v1\nkind: Policy\n';
  assert.throws(() => parsePolicy(`${head}rules: [null]`), { message: 'rules[0].level: Required value' });
  assert.throws(() => parsePolicy(`${head}rules: [{level: Metadata, nonResourceURLs: [null]}]`), { message: `rules[0].nonResourceURLs[0]: Invalid value: "": non-resource URL rules must begin with a '/' character` });
  assert.throws(() => parsePolicy(`${head}rules: [{level: Metadata, resources: [null, {resourceNames: [x]}]}]`), { message: 'rules[0].resources.resourceNames: Invalid value: ["x"]: using resourceNames requires at least one resource' });
  assert.throws(() => parsePolicy(`${head}rules: "x"`), { message: 'failed decoding: json: cannot unmarshal string into Go struct field Policy.rules of type []v1.PolicyRule' });
  assert.throws(() => parsePolicy(`${head}rules: [{level: Metadata, resources: [{group: 5}]}]`), { message: 'failed decoding: json: cannot unmarshal number into Go struct field GroupResources.rules.resources.group of type string' });
  assert.throws(() => parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: 3}]\n'), {
    message: 'failed decoding: json: cannot unmarshal number into Go struct field PolicyRule.rules.level of type v1.Level',
  });
});
