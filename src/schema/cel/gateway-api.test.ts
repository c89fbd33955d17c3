/**
 * The Gateway API v1.0.0-rc1 CRDs (testdata/crds/gateway-api: 4 CRDs, 40 CEL rules) end to end
 * through the schema layer: every example under valid/ passes the OpenAPI schema and the CEL rules
 * (after pruning and defaulting, as the write path runs them), every example under invalid/ is
 * rejected, and the rule failures read exactly as kube-apiserver reports them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorString } from '../../apimachinery/index.ts';
import { readYAMLDocuments } from '../../apimachinery/index.ts';
import { compileSchema, type CompiledSchema } from '../compile.ts';
import type { JSONSchemaProps } from '../types.ts';
import { compileCELValidator, type CELValidator } from './validation.ts';

const dir = fileURLToPath(new URL('../../../testdata/crds/gateway-api/', import.meta.url));

/** The rule failures of each invalid example (schema-only rejections have none). */
const RULE_ERRORS: Record<string, string[]> = {
  "gateway/duplicate-listeners.yaml": ["spec.listeners: Invalid value: Listener name must be unique within the Gateway"],
  "gateway/hostname-tcp.yaml": ["spec.listeners: Invalid value: hostname must not be specified for protocols ['TCP', 'UDP']"],
  "gateway/hostname-udp.yaml": ["spec.listeners: Invalid value: hostname must not be specified for protocols ['TCP', 'UDP']"],
  "gateway/invalid-addresses.yaml": ["spec.addresses[9]: Invalid value: Hostname value must only contain valid characters (matching ^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$)"],
  "gateway/invalid-listener-name.yaml": [],
  "gateway/invalid-listener-port.yaml": [],
  "gateway/tlsconfig-tcp.yaml": ["spec.listeners: Invalid value: tls must not be specified for protocols ['HTTP', 'TCP', 'UDP']"],
  "gatewayclass/invalid-controller.yaml": [],
  "httproute/duplicate-header-match.yaml": [],
  "httproute/duplicate-query-match.yaml": [],
  "httproute/httproute-portless-backend.yaml": ["spec.rules[0].backendRefs[0]: Invalid value: Must have port for Service reference"],
  "httproute/httproute-portless-service.yaml": ["spec.rules[0].backendRefs[0]: Invalid value: Must have port for Service reference"],
  "httproute/invalid-backend-group.yaml": [],
  "httproute/invalid-backend-kind.yaml": [],
  "httproute/invalid-backend-port.yaml": [],
  "httproute/invalid-filter-duplicate-header.yaml": [],
  "httproute/invalid-filter-duplicate.yaml": ["spec.rules[0].filters: Invalid value: RequestHeaderModifier filter cannot be repeated"],
  "httproute/invalid-filter-empty.yaml": ["spec.rules[0].filters[0]: Invalid value: filter.requestHeaderModifier must be specified for RequestHeaderModifier filter.type"],
  "httproute/invalid-filter-wrong-field.yaml": ["spec.rules[0].filters[0]: Invalid value: filter.requestHeaderModifier must be specified for RequestHeaderModifier filter.type", "spec.rules[0].filters[0]: Invalid value: filter.requestRedirect must be nil if the filter.type is not RequestRedirect"],
  "httproute/invalid-header-name.yaml": [],
  "httproute/invalid-hostname.yaml": ["spec.rules[0].backendRefs[0]: Invalid value: Must have port for Service reference"],
  "httproute/invalid-httredirect-hostname.yaml": ["spec.rules[0]: Invalid value: RequestRedirect filter must not be used together with backendRefs"],
  "httproute/invalid-method.yaml": [],
  "httproute/invalid-path-alphanum-specialchars-mix.yaml": ["spec.rules[0].matches[0].path: Invalid value: must only contain valid characters (matching ^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$) for types ['Exact', 'PathPrefix']"],
  "httproute/invalid-path-specialchars.yaml": ["spec.rules[0].matches[0].path: Invalid value: must only contain valid characters (matching ^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$) for types ['Exact', 'PathPrefix']"],
  "httproute/invalid-request-redirect-with-backendref.yaml": ["spec.rules[0]: Invalid value: RequestRedirect filter must not be used together with backendRefs"],
  "referencegrant/missing-from.yaml": [],
  "referencegrant/missing-ns.yaml": [],
  "referencegrant/missing-to.yaml": [],
};

interface Obj {
  apiVersion: string;
  kind: string;
  metadata?: { name?: string };
}

const docs = (f: string): Obj[] => (readYAMLDocuments(readFileSync(f, 'utf8')) as Obj[]).filter(Boolean);
const files = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? files(join(d, f)) : [join(d, f)])).sort();

interface Kind {
  schema: CompiledSchema;
  rules: CELValidator | undefined;
}

function load(): Map<string, Kind> {
  const kinds = new Map<string, Kind>();
  for (const crd of docs(join(dir, 'crds/standard-install.yaml')) as unknown as {
    spec: { group: string; names: { kind: string }; versions: { name: string; schema: { openAPIV3Schema: JSONSchemaProps } }[] };
  }[]) {
    for (const v of crd.spec.versions) {
      const schema = compileSchema(v.schema.openAPIV3Schema);
      kinds.set(`${crd.spec.group}/${v.name}/${crd.spec.names.kind}`, { schema, rules: compileCELValidator(schema.structural, true) });
    }
  }
  return kinds;
}

/** Prune, default, then validate the schema and the rules, as the write path does. */
function validate(kinds: Map<string, Kind>, obj: Obj): { schema: string[]; rules: string[] } {
  const k = kinds.get(`${obj.apiVersion}/${obj.kind}`);
  assert.ok(k, `no CRD for ${obj.apiVersion} ${obj.kind}`);
  const o = structuredClone(obj);
  k.schema.prune(o);
  k.schema.default(o);
  return { schema: k.schema.validate(o).map(errorString), rules: (k.rules?.validate(o).errors ?? []).map(errorString) };
}

test('Gateway API: every rule compiles', () => {
  let n = 0;
  for (const k of load().values()) {
    for (const r of k.rules?.rules() ?? []) {
      n++;
      assert.equal(r.compiled.error, undefined, `${r.path}: ${r.compiled.rule.rule}: ${r.compiled.error?.detail}`);
    }
  }
  assert.ok(n >= 40, `only ${n} rules compiled`);
});

test('Gateway API: valid examples pass schema and rules', () => {
  const kinds = load();
  let n = 0;
  for (const f of files(join(dir, 'valid'))) {
    for (const obj of docs(f)) {
      if (obj.kind === 'Namespace') continue;
      const r = validate(kinds, obj);
      assert.deepEqual([...r.schema, ...r.rules], [], `${f} ${obj.metadata?.name}`);
      n++;
    }
  }
  console.log(`gateway-api valid examples: ${n} passed`);
  assert.ok(n > 40);
});

test("Gateway API: invalid examples are rejected with Kubernetes' rule messages", () => {
  const kinds = load();
  const seen = new Set<string>();
  for (const f of files(join(dir, 'invalid'))) {
    const key = f.slice(join(dir, 'invalid').length + 1);
    for (const obj of docs(f)) {
      const r = validate(kinds, obj);
      assert.ok(r.schema.length + r.rules.length > 0, `${key} was accepted`);
      assert.deepEqual(r.rules, RULE_ERRORS[key], key);
      seen.add(key);
    }
  }
  assert.deepEqual([...seen].sort(), Object.keys(RULE_ERRORS).sort());
  console.log(`gateway-api invalid examples: ${seen.size} rejected`);
});
