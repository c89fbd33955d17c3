/**
 * TokenRequest's validation against upstream's table (testdata/k8s-serviceaccount/
 * token-request-validation.json), run as data; the subresource end to end is
 * test/e2e/serviceaccount-tokens.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { errorString } from '../../../apimachinery/index.ts';
import { validateTokenRequest } from './token-request.ts';

const doc = JSON.parse(readFileSync(new URL('../../../../testdata/k8s-serviceaccount/token-request-validation.json', import.meta.url), 'utf8'));

test('token-request-validation.json: the expiration bounds as ValidateTokenRequest sets them', () => {
  assert.ok(doc.cases.length >= 6, 'the table has its cases');
  for (const c of doc.cases) assert.deepEqual(validateTokenRequest({ expirationSeconds: c.expirationSeconds }).map(errorString), c.errors, c.name);
  process.stdout.write(`token-request-validation.json: ${doc.cases.length} passed, 0 skipped\n`);
});
