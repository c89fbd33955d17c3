// kube-openapi's TestJSONSchemaSuite: the JSON-Schema-Test-Suite fixtures kube-openapi enables,
// plus its extended formats, checked for valid/invalid only (data decoded as encoding/json does,
// every number a float64).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compileValidator } from './validator.ts';
import { parseGoJSON } from '../gojson.ts';
import { Tally } from '../vectors.ts';
import type { JSONSchemaProps } from '../types.ts';

interface Group {
  description: string;
  schema: JSONSchemaProps;
  tests: { description: string; data: unknown; valid: boolean }[];
}

const dir = fileURLToPath(new URL('../../../testdata/k8s/kube-openapi/', import.meta.url));
const tally = new Tally('kube-openapi jsonschema suite');
after(() => console.log(tally.summary()));

/** Keywords Kubernetes forbids in CRD schemas and this validator does not implement. */
const unsupported: [string, string][] = [
  ['$ref', '$ref is not supported in CRD schemas (kube-openapi panics on it too)'],
  ['definitions', 'definitions is not supported in CRD schemas'],
];

for (const file of readdirSync(dir).sort()) {
  const text0 = readFileSync(dir + file, 'utf8');
  // Schemas keep plain numbers; data is decoded as encoding/json decodes into interface{}.
  const groups = parseGoJSON(text0) as Group[];
  const data = parseGoJSON(text0, { allFloats: true }) as Group[];
  groups.forEach((g, gi) => g.tests.forEach((c, ci) => (c.data = data[gi]!.tests[ci]!.data)));
  for (const g of groups) {
    const text = JSON.stringify(g.schema);
    const skip = unsupported.find(([k]) => text.includes(`"${k}"`));
    for (const c of g.tests) {
      test(`${file}: ${g.description}: ${c.description}`, (t) => {
        if (skip) {
          tally.skip(`${g.description}: ${c.description}`, skip[1]);
          t.skip(skip[1]);
          return;
        }
        const errs = compileValidator(g.schema).validateRaw(c.data);
        try {
          assert.equal(errs.length === 0, c.valid, errs.map((e) => e.message).join('; '));
          tally.passed++;
        } catch (e) {
          tally.failed++;
          throw e;
        }
      });
    }
  }
}
