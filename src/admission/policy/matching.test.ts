/**
 * Matching as data: upstream's TestMatcher, the namespace matcher's label tests and the rules
 * predicate tables (testdata/k8s/admission/, source commit and licence noted in each file).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { matchesCriteria, ruleMatches, type GVK, type GVR, type MatchAttributes, type MatchContext, type MatchResources, type NamedRule } from './matching.ts';
import type { Obj } from '../../registry/index.ts';

const dir = new URL('../../../testdata/k8s/admission/', import.meta.url);
const load = (f: string) => JSON.parse(readFileSync(new URL(f, dir), 'utf8'));

interface AttrsJSON extends Omit<MatchAttributes, 'object' | 'oldObject'> {
  object?: Obj;
  oldObject?: Obj;
}
const attrsOf = (a: AttrsJSON): MatchAttributes => ({ object: undefined, oldObject: undefined, ...a });

test('matching vectors (matching_test.go TestMatcher, namespace matcher_test.go)', async (t) => {
  const doc = load('matching.json') as {
    equivalents: { resource: GVR; subresource: string; kind: GVK }[];
    namespaces: Record<string, Obj>;
    cases: { name: string; criteria: MatchResources; attrs: AttrsJSON; expectMatches: boolean; expectMatchKind?: GVK; expectMatchResource?: GVR; expectErr?: string }[];
  };
  assert.ok(doc.cases.length >= 36, `at least 36 cases, got ${doc.cases.length}`);
  const same = (a: GVR, b: GVR) => a.group === b.group && a.resource === b.resource;
  const ctx: MatchContext = {
    getNamespace: async (name) => doc.namespaces[name],
    equivalents: (r, sub) =>
      doc.equivalents.some((e) => same(e.resource, r)) ? doc.equivalents.filter((e) => e.subresource === sub && e.resource.resource === r.resource) : [],
  };
  for (const c of doc.cases) {
    await t.test(c.name, async () => {
      const a = attrsOf(c.attrs);
      const r = await matchesCriteria(c.criteria, a, ctx);
      assert.equal(r.matches, c.expectMatches);
      if (c.expectErr !== undefined) {
        assert.ok(!r.matches && r.error, 'an error');
        assert.ok(r.error.message.includes(c.expectErr), r.error.message);
      } else if (!r.matches) assert.equal(r.error, undefined, r.error?.message);
      if (r.matches) {
        if (c.expectMatchKind) assert.deepEqual(r.kind, c.expectMatchKind);
        assert.deepEqual(r.resource, c.expectMatchResource ?? a.resource);
      }
    });
  }
});

test('rules predicate vectors (rules_test.go)', async (t) => {
  const doc = load('rules.json') as { cases: { name: string; rule: NamedRule; match: AttrsJSON[]; noMatch: AttrsJSON[] }[] };
  assert.ok(doc.cases.length >= 17);
  let n = 0;
  for (const c of doc.cases) {
    await t.test(c.name, () => {
      for (const a of c.match) assert.ok(ruleMatches(c.rule, attrsOf(a)), `expected a match: ${JSON.stringify(a)}`);
      for (const a of c.noMatch) assert.ok(!ruleMatches(c.rule, attrsOf(a)), `expected no match: ${JSON.stringify(a)}`);
      n += c.match.length + c.noMatch.length;
    });
  }
  assert.ok(n >= 76, `at least 76 attribute checks, got ${n}`);
});
