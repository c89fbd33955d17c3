/**
 * Upstream's unit tables as data: VerifyAdmissionResponse (admissionreview_test.go), ToStatusErr
 * (statuserror_test.go) and the caBundle loading of TestValidateCABundle; and the AdmissionReview
 * a request makes, with the version chosen from admissionReviewVersions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { AdmissionAttributes } from '../../registry/index.ts';
import { CallFailure, loadCABundle } from './client.ts';
import { toStatusError } from './errors.ts';
import { admissionReview, reviewVersion, verifyAdmissionResponse, type ReviewVersion } from './review.ts';

const vectors = <T>(file: string) => JSON.parse(readFileSync(new URL(`../../../testdata/k8s/admission/webhook/${file}`, import.meta.url), 'utf8')) as { count: number; cases: T[]; skipped: { name: string; reason: string }[] };

test('VerifyAdmissionResponse (upstream admissionreview_test.go vectors)', () => {
  const v = vectors<{ name: string; version: ReviewVersion; uid: string; mutating: boolean; review: unknown; expect?: Record<string, unknown>; expectErr?: string }>('verify-response.json');
  assert.ok(v.cases.length >= 27);
  assert.equal(v.count, v.cases.length);
  for (const c of v.cases) {
    const r = verifyAdmissionResponse(c.version, c.uid, c.mutating, c.review);
    if (c.expectErr !== undefined) {
      assert.ok('error' in r, `${c.name}: expected an error`);
      assert.ok(r.error.includes(c.expectErr), `${c.name}: ${r.error}`);
      continue;
    }
    assert.ok(!('error' in r) && !('decode' in r), `${c.name}: ${JSON.stringify(r)}`);
    const got: Record<string, unknown> = { allowed: r.allowed, auditAnnotations: r.auditAnnotations, patchType: r.patchType };
    if (r.patch !== undefined) got.patch = r.patch;
    if (r.result !== undefined) got.result = r.result;
    assert.deepEqual(got, c.expect, c.name);
  }
  console.log(`VerifyAdmissionResponse: ${v.cases.length} cases, ${v.skipped.length} skipped`);
});

test('ToStatusErr (upstream statuserror_test.go vectors)', () => {
  const v = vectors<{ name: string; result: Record<string, unknown> | null; expectedError: string; expectedCode: number; expectedStatus: string }>('to-status-error.json');
  assert.ok(v.cases.length >= 14);
  for (const c of v.cases) {
    const e = toStatusError('foo', c.result ?? undefined);
    assert.equal(e.message, c.expectedError, c.name);
    assert.equal(e.status.code, c.expectedCode, c.name);
    assert.equal(e.status.status, c.expectedStatus, c.name);
  }
});

test('caBundle loading (upstream TestValidateCABundle vectors)', () => {
  const v = vectors<{ name: string; caBundle: string | null; expectErr: boolean }>('ca-bundle.json');
  assert.ok(v.cases.length >= 5);
  for (const c of v.cases) {
    let err: unknown;
    try {
      loadCABundle(c.caBundle);
    } catch (e) {
      err = e;
    }
    assert.equal(err !== undefined, c.expectErr, c.name);
    if (err !== undefined) {
      assert.ok(err instanceof CallFailure);
      assert.equal(err.message, 'could not get REST client: unable to load root certificates: unable to parse bytes as PEM block');
    }
  }
});

test('CreateAdmissionObjects: the first known version, else upstream error; request fields in Go order with omitempty', () => {
  assert.equal(reviewVersion(['v2', 'v1beta1', 'v1']), 'v1beta1');
  assert.deepEqual(reviewVersion([]), { error: 'webhook does not accept known AdmissionReview versions (v1, v1beta1)' });
  assert.deepEqual(reviewVersion(['v2']), { error: 'webhook does not accept known AdmissionReview versions (v1, v1beta1)' });
  const a: AdmissionAttributes = {
    operation: 'UPDATE',
    user: { username: 'myuser', groups: [] },
    resource: { group: 'apps', version: 'v1', resource: 'deployments' },
    subresource: 'scale',
    kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
    namespace: 'ns',
    name: 'd',
    object: { apiVersion: 'autoscaling/v1', kind: 'Scale', spec: { replicas: 2 } },
    oldObject: { apiVersion: 'autoscaling/v1', kind: 'Scale', spec: { replicas: 1 } },
    options: { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1' },
    dryRun: true,
    warnings: [],
  };
  const inv = { webhook: {} as never, resource: a.resource, kind: a.kind };
  const r = admissionReview('v1beta1', 'u-1', a, inv);
  assert.equal(JSON.stringify(r), JSON.stringify({
    kind: 'AdmissionReview',
    apiVersion: 'admission.k8s.io/v1beta1',
    request: {
      uid: 'u-1',
      kind: a.kind,
      resource: a.resource,
      subResource: 'scale',
      requestKind: a.kind,
      requestResource: a.resource,
      requestSubResource: 'scale',
      name: 'd',
      namespace: 'ns',
      operation: 'UPDATE',
      userInfo: { username: 'myuser' },
      object: a.object,
      oldObject: a.oldObject,
      dryRun: true,
      options: a.options,
    },
  }));
});
