import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  newNotFound,
  newAlreadyExists,
  newConflict,
  newInvalid,
  newForbidden,
  newInternalError,
  newTimeout,
  newMethodNotSupported,
  newGenerateNameConflict,
  newUnsupportedMediaType,
  newNotAcceptableMediaTypes,
  newRequestEntityTooLarge,
  newResourceExpired,
  newUnauthorized,
  successStatus,
  errorToStatus,
  newGenericServerResponse,
  newContinueExpired,
  newTooOldResourceVersion,
  isStatusError,
  isNotFound,
  StatusError,
} from './status.ts';
import { invalid, required, notSupported } from './field/errors.ts';
import { Path } from './field/path.ts';

const crontabs = { group: 'stable.example.com', resource: 'crontabs' };

test('NotFound prints group resource and quoted name, details in Go field order', () => {
  const e = newNotFound(crontabs, 'x');
  assert.ok(isStatusError(e));
  assert.ok(isNotFound(e));
  assert.equal(e.code, 404);
  assert.equal(e.message, 'crontabs.stable.example.com "x" not found');
  assert.equal(
    JSON.stringify(e.status),
    '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"crontabs.stable.example.com \\"x\\" not found","reason":"NotFound","details":{"name":"x","group":"stable.example.com","kind":"crontabs"},"code":404}',
  );
});

test('core group resources print without a dot and omit the empty group', () => {
  const e = newAlreadyExists({ group: '', resource: 'namespaces' }, 'default');
  assert.equal(e.message, 'namespaces "default" already exists');
  assert.deepEqual(e.status.details, { name: 'default', kind: 'namespaces' });
  assert.equal(e.reason, 'AlreadyExists');
  assert.equal(e.code, 409);
});

test('Conflict message', () => {
  const e = newConflict(crontabs, 'x', 'the object has been modified; please apply your changes to the latest version and try again');
  assert.equal(
    e.message,
    'Operation cannot be fulfilled on crontabs.stable.example.com "x": the object has been modified; please apply your changes to the latest version and try again',
  );
  assert.equal(e.reason, 'Conflict');
});

test('Invalid aggregates field errors and lists one cause per error', () => {
  const errs = [
    required(Path.of('metadata', 'name'), 'name or generateName is required'),
    invalid(Path.of('spec', 'replicas'), 20, 'must be less than or equal to 10'),
    notSupported(Path.of('spec', 'mode'), 'x', ['A', 'B']),
  ];
  const e = newInvalid({ group: 'stable.example.com', kind: 'CronTab' }, 'x', errs);
  assert.equal(e.code, 422);
  assert.equal(
    e.message,
    'CronTab.stable.example.com "x" is invalid: [metadata.name: Required value: name or generateName is required, spec.replicas: Invalid value: 20: must be less than or equal to 10, spec.mode: Unsupported value: "x": supported values: "A", "B"]',
  );
  assert.deepEqual(e.status.details, {
    name: 'x',
    group: 'stable.example.com',
    kind: 'CronTab',
    causes: [
      { reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: 20: must be less than or equal to 10', field: 'spec.replicas' },
      { reason: 'FieldValueNotSupported', message: 'Unsupported value: "x": supported values: "A", "B"', field: 'spec.mode' },
    ],
  });
  const single = newInvalid({ group: '', kind: 'Namespace' }, 'n', [errs[0]!]);
  assert.equal(single.message, 'Namespace "n" is invalid: metadata.name: Required value: name or generateName is required');
  assert.equal(newInvalid({ group: '', kind: 'Namespace' }, 'n', []).message, 'Namespace "n" is invalid');
  assert.equal(newInvalid({ group: '', kind: 'Namespace' }, 'n', []).status.details!.causes, undefined);
});

test('Forbidden message forms', () => {
  assert.equal(newForbidden({ group: '', resource: '' }, '', 'nope').message, 'forbidden: nope');
  assert.equal(newForbidden(crontabs, '', 'nope').message, 'crontabs.stable.example.com is forbidden: nope');
  assert.equal(newForbidden(crontabs, 'x', new Error('nope')).message, 'crontabs.stable.example.com "x" is forbidden: nope');
  assert.deepEqual(newForbidden({ group: '', resource: '' }, '', 'nope').status.details, {});
});

test('InternalError, Timeout, GenerateNameConflict, MethodNotSupported', () => {
  const ie = newInternalError(new Error('boom'));
  assert.equal(ie.message, 'Internal error occurred: boom');
  assert.deepEqual(ie.status.details, { causes: [{ message: 'boom' }] });
  assert.equal(ie.code, 500);
  const t = newTimeout('request did not complete within 60s', 0);
  assert.equal(t.message, 'Timeout: request did not complete within 60s');
  assert.equal(t.code, 504);
  assert.deepEqual(t.status.details, {});
  const g = newGenerateNameConflict(crontabs, 'x-abcde', 1);
  assert.equal(
    g.message,
    'crontabs.stable.example.com "x-abcde" already exists, the server was not able to generate a unique name for the object',
  );
  assert.equal(g.status.details!.retryAfterSeconds, 1);
  const m = newMethodNotSupported(crontabs, 'deletecollection');
  assert.equal(m.message, 'deletecollection is not supported on resources of kind "crontabs.stable.example.com"');
  assert.equal(m.code, 405);
  assert.equal(m.reason, 'MethodNotAllowed');
});

test('negotiation and misc errors', () => {
  const u = newUnsupportedMediaType(['application/json-patch+json', 'application/merge-patch+json']);
  assert.equal(u.code, 415);
  assert.equal(
    u.message,
    'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json',
  );
  assert.equal(newNotAcceptableMediaTypes(['application/json', 'application/yaml']).message, 'only the following media types are accepted: application/json, application/yaml');
  assert.equal(newRequestEntityTooLarge('limit is 3145728').message, 'Request entity too large: limit is 3145728');
  const ex = newResourceExpired('too old resource version: 1 (5)');
  assert.equal(ex.code, 410);
  assert.equal(ex.reason, 'Expired');
  assert.equal(newUnauthorized('').message, 'not authorized');
});

test('successStatus and errorToStatus', () => {
  assert.equal(
    JSON.stringify(successStatus({ name: 'x', group: 'stable.example.com', kind: 'crontabs', uid: 'u1' })),
    '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","details":{"name":"x","group":"stable.example.com","kind":"crontabs","uid":"u1"},"code":200}',
  );
  assert.equal(
    JSON.stringify(errorToStatus(new Error('disk full'))),
    '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"disk full","code":500}',
  );
  const e = newNotFound(crontabs, 'y');
  assert.equal(errorToStatus(e), e.status);
  assert.ok(e instanceof StatusError && e instanceof Error);
});

test('generic server response for a failed JSON patch hides the library text', () => {
  const e = newGenericServerResponse(422, '', { group: '', resource: '' }, '', 'testing value /a failed: test failed', 0, false);
  assert.equal(
    JSON.stringify(e.status),
    '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server rejected our request due to an error in our request","reason":"Invalid","details":{},"code":422}',
  );
  const c = newGenericServerResponse(409, 'POST', { group: 'g', resource: 'r' }, 'n', '', 0, false);
  assert.equal(c.reason, 'AlreadyExists');
  assert.equal(c.message, 'the server reported a conflict (post r.g n)');
  assert.equal(newGenericServerResponse(502, 'GET', { group: '', resource: '' }, '', 'bad gateway', 0, false).message,
    'an error on the server ("bad gateway") has prevented the request from succeeding');
});

test('expired pages and watches', () => {
  const e = newContinueExpired('tok');
  assert.equal(e.code, 410);
  assert.equal(e.reason, 'Expired');
  assert.deepEqual(e.status.metadata, { continue: 'tok' });
  assert.match(e.message, /^The provided continue parameter is too old .* may show up in the list\.$/);
  assert.deepEqual(newContinueExpired().status.metadata, {});
  assert.equal(newTooOldResourceVersion(5, 10).message, 'too old resource version: 5 (10)');
});
