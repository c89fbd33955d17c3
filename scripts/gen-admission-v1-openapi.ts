/**
 * Adds MutatingAdmissionPolicy and MutatingAdmissionPolicyBinding to the vendored
 * admissionregistration.k8s.io/v1 OpenAPI document, as Kubernetes 1.36 serves them there: the
 * kinds' v1beta1 paths and schemas (1.35's `v1beta1.json`) under v1 — the types are the same in
 * both versions. Idempotent: the kinds' v1 entries are rebuilt from v1beta1 on every run.
 *
 * Usage: npx tsx scripts/gen-admission-v1-openapi.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';

const dir = new URL('../vendor/k8s-openapi/1.35/apis/admissionregistration.k8s.io/', import.meta.url);
const v1File = new URL('v1.json', dir);
type Doc = { paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };
const v1 = JSON.parse(readFileSync(v1File, 'utf8')) as Doc;
const beta = JSON.parse(readFileSync(new URL('v1beta1.json', dir), 'utf8')) as Doc;

const mutating = /mutatingadmissionpolic/i;
/** v1beta1 names and versions as v1's: schema names, paths, operation ids, group-version-kinds. */
const toV1 = (text: string) =>
  text
    .replaceAll('io.k8s.api.admissionregistration.v1beta1.', 'io.k8s.api.admissionregistration.v1.')
    .replaceAll('/apis/admissionregistration.k8s.io/v1beta1/', '/apis/admissionregistration.k8s.io/v1/')
    .replaceAll('AdmissionregistrationV1beta1', 'AdmissionregistrationV1')
    .replaceAll('admissionregistration_v1beta1', 'admissionregistration_v1')
    .replaceAll('"version": "v1beta1"', '"version": "v1"')
    .replaceAll('"version":"v1beta1"', '"version":"v1"');

for (const p of Object.keys(v1.paths)) if (mutating.test(p)) delete v1.paths[p];
for (const [p, ops] of Object.entries(beta.paths)) {
  if (!mutating.test(p)) continue;
  v1.paths[toV1(p)] = JSON.parse(toV1(JSON.stringify(ops)));
}
const prefix = 'io.k8s.api.admissionregistration.v1beta1.';
for (const [name, schema] of Object.entries(beta.components.schemas)) {
  if (!name.startsWith(prefix)) continue;
  const v1Name = toV1(name);
  // Types v1 already has (MatchResources, ParamRef, ...) keep v1's own schema.
  if (v1.components.schemas[v1Name] !== undefined && !mutating.test(name) && !/\.(Mutation|ApplyConfiguration|JSONPatch)$/.test(name)) continue;
  v1.components.schemas[v1Name] = JSON.parse(toV1(JSON.stringify(schema)));
}


writeFileSync(v1File, JSON.stringify(v1, null, 2) + '\n');
