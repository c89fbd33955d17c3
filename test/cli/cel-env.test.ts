/**
 * `crd-apiserver cel eval|check --env ...` as real CLI processes: the admission environment (typed
 * request and namespaceObject, params, chained variables, the authorizer), the DRA device-selector
 * environment (attributes by domain with the driver's domain by default, missing domains empty,
 * quantities and semvers, cel.bind, the bool result type, bounded cost), and an unknown
 * environment refused (`map`: src/cli/cel-map-env.test.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCLI } from '../lib/cli.ts';
import { join } from 'node:path';

function cel(...args: string[]): { code: number | null; out: Record<string, unknown> } {
  const r = runCLI('cel', ...args);
  return { code: r.code, out: JSON.parse(r.stdout) as Record<string, unknown> };
}

const device = JSON.stringify({
  device: {
    driver: 'gpu.example.com',
    attributes: { model: { string: 'a100' }, 'pcie.example.com/gen': { int: 5 }, driverVersion: { version: '1.2.3' }, mig: { bool: true } },
    capacity: { memory: { value: '40Gi' } },
  },
});

test('dra: attributes by domain, the driver as the default domain, quantities, semvers and cel.bind', () => {
  const expr = [
    'device.driver == "gpu.example.com"',
    'device.attributes["gpu.example.com"].model == "a100"',
    'device.attributes["pcie.example.com"].gen >= 4',
    'device.attributes["gpu.example.com"].mig',
    'device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("1.0.0"))',
    'device.capacity["gpu.example.com"].memory.compareTo(quantity("32Gi")) >= 0',
    'cel.bind(g, device.attributes["gpu.example.com"], g.model.startsWith("a"))',
  ].join(' && ');
  assert.deepEqual(cel('eval', expr, '--env', 'dra', '--vars', device), { code: 0, out: { type: 'bool', value: true } });
});

test('dra: a domain no attribute names is an empty map, not an error; `in` sees only real domains', () => {
  assert.deepEqual(cel('eval', 'device.attributes["other.example.com"].size() == 0 && !("other.example.com" in device.attributes)', '--env', 'dra', '--vars', device).out, { type: 'bool', value: true });
  assert.deepEqual(cel('eval', 'device.attributes["other.example.com"].x', '--env', 'dra', '--vars', device), { code: 1, out: { error: 'no such key: x' } });
});

test('dra: the result must be bool, unknown fields and variables do not compile, sizes bound the cost', () => {
  assert.deepEqual(cel('check', 'device.attributes["a"].x', '--env', 'dra').out.type, 'dyn');
  assert.deepEqual(cel('check', '1', '--env', 'dra'), { code: 2, out: { error: 'must evaluate to bool or the unknown type, not int' } });
  const r = cel('check', 'device.name == "x"', '--env', 'dra');
  assert.equal(r.code, 2);
  assert.match(String(r.out.error), /^compilation failed: ERROR: <input>:1:7: undefined field 'name'/);
  assert.match(String(cel('eval', 'object == null', '--env', 'dra').out.error), /undeclared reference to 'object'/);
  // Every attribute of every domain: bounded by the ResourceSlice limits, not unbounded.
  const c = cel('check', 'device.attributes.all(d, device.attributes[d].all(n, n.size() < 10))', '--env', 'dra');
  assert.deepEqual(c.out, { type: 'bool', cost: { min: 3, max: 6403 } });
  assert.equal(cel('eval', 'true', '--env', 'dra', '--vars', '{"device": {"attributes": {"v": {"version": "not-semver"}}}}').code, 2);
});

test('vap: object, params, typed request, chained variables, namespaceObject and the authorizer', () => {
  const vars = JSON.stringify({
    object: { spec: { replicas: 3 } },
    params: { data: { max: '5' } },
    request: { operation: 'CREATE', userInfo: { username: 'alice' }, resource: { group: 'apps', version: 'v1', resource: 'deployments' } },
    namespaceObject: { metadata: { name: 'prod', labels: { env: 'prod' } } },
  });
  const variables = JSON.stringify({ max: 'int(params.data.max)', fits: 'object.spec.replicas <= variables.max' });
  const expr = 'variables.fits && request.operation == "CREATE" && request.userInfo.username == "alice" && namespaceObject.metadata.labels.env == "prod" && oldObject == null && authorizer.requestResource.check("create").allowed()';
  assert.deepEqual(cel('eval', expr, '--env', 'vap', '--vars', vars, '--variables', variables), { code: 0, out: { type: 'bool', value: true } });
  assert.deepEqual(cel('check', 'request.name', '--env', 'vap').out, { type: 'string', cost: { min: 2, max: 2 } });
  assert.match(String(cel('check', 'request.nope', '--env', 'vap').out.error), /^compilation failed: ERROR: <input>:1:8: undefined field 'nope'/);
  assert.match(String(cel('eval', 'self', '--env', 'vap').out.error), /undeclared reference to 'self'/);
  assert.deepEqual(cel('eval', '1', '--env', 'vap', '--vars', '{"self": 1}'), { code: 2, out: { error: '--vars: the admission environment has no input "self" (inputs: object, oldObject, request, params, namespaceObject)' } });
  // A variable that fails is an error where it is read, with upstream's text.
  assert.deepEqual(cel('eval', 'variables.bad', '--env', 'vap', '--variables', '{"bad": "1 / 0"}'), { code: 1, out: { error: 'composited variable "bad" fails to evaluate: division by zero' } });
});

test('an unknown environment is a usage error; crd stays the default', () => {
  assert.deepEqual(cel('eval', '1', '--env', 'nope'), { code: 2, out: { error: '--env must be one of crd, vap, map, dra, not "nope"' } });
  assert.deepEqual(cel('eval', 'self.size()', '--env', 'crd', '--vars', '{"self": "abc"}'), { code: 0, out: { type: 'int', value: 3 } });
  assert.match(String(cel('eval', 'device', '--vars', '{}').out.error), /undeclared reference to 'device'/);
});
