/**
 * `crd-apiserver cel eval|check`: the JSON line printed and the exit status for values, evaluation
 * errors and compile errors.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCelCaptured } from '../../test/cli/run-cel.ts';

async function raw(...argv: string[]): Promise<string> {
  return (await runCelCaptured(...argv)).stdout;
}

test('output is one JSON line in the documented layout', async () => {
  assert.equal(await raw('eval', '[1, 2]'), '{"type": "list(int)", "value": [1, 2]}\n');
  assert.equal(await raw('eval', "{'a': 'b'}"), '{"type": "map(string, string)", "value": {"a": "b"}}\n');
  assert.equal(await raw('eval', '1 / 0'), '{"error": "division by zero"}\n');
});

async function cli(...argv: string[]): Promise<{ code: number; out: unknown }> {
  const r = await runCelCaptured(...argv);
  return { code: r.code, out: JSON.parse(r.stdout) };
}

test('cel eval prints type and value', async () => {
  assert.deepEqual(await cli('eval', '1 + 2'), { code: 0, out: { type: 'int', value: 3 } });
  assert.deepEqual(await cli('eval', "duration('1h2m3s')"), { code: 0, out: { type: 'duration', value: '3723s' } });
  assert.deepEqual(await cli('eval', "timestamp('2023-01-02T03:04:05Z')"), {
    code: 0,
    out: { type: 'timestamp', value: '2023-01-02T03:04:05Z' },
  });
  assert.deepEqual(await cli('eval', "b'hi'"), { code: 0, out: { type: 'bytes', value: 'aGk=' } });
  assert.deepEqual(await cli('eval', '9223372036854775807'), { code: 0, out: { type: 'int', value: '9223372036854775807' } });
  assert.deepEqual(await cli('eval', 'x.a * 2 + y', '--vars', '{"x": {"a": 4}, "y": 1}'), { code: 0, out: { type: 'int', value: 9 } });
  assert.deepEqual(await cli('eval', 'x / 2.0', '--vars', '{"x": 1.5}'), { code: 0, out: { type: 'double', value: 0.75 } });
  assert.deepEqual(await cli('eval', "'%s-%d'.format(['a', 1])"), { code: 0, out: { type: 'string', value: 'a-1' } });
});

test('cel eval: evaluation errors exit 1, compile errors exit 2', async () => {
  assert.deepEqual(await cli('eval', '1 / 0'), { code: 1, out: { error: 'division by zero' } });
  const bad = await cli('eval', '1 +');
  assert.equal(bad.code, 2);
  assert.match((bad.out as { error: string }).error, /^ERROR: <input>:1:4: Syntax error/);
  const undeclared = await cli('eval', 'nope + 1');
  assert.equal(undeclared.code, 2);
  assert.match((undeclared.out as { error: string }).error, /undeclared reference to 'nope'/);
});

test('cel check prints the type and the estimated cost range', async () => {
  const r = await cli('check', "self.name.startsWith('kube')", '--decls', '{"self": "map(string, string)"}');
  assert.equal(r.code, 0);
  const out = r.out as { type: string; cost: { min: number; max: number | string } };
  assert.equal(out.type, 'bool');
  assert.ok(out.cost.min >= 3);
  const lit = await cli('check', '[1, 2].size()');
  assert.deepEqual(lit.out, { type: 'int', cost: { min: 11, max: 11 } });
});

/**
 * Every Kubernetes library through `cel eval`, as cel-go tests its libraries: expressions that must
 * evaluate to true (the values come from upstream's library tests).
 */
test('cel eval: the Kubernetes libraries, each with expressions that must be true', async () => {
  const truths: Record<string, string[]> = {
    quantity: [
      "quantity('1Mi').isGreaterThan(quantity('1Ki'))",
      "quantity('200M').compareTo(quantity('0.2G')) == 0",
      "quantity('50k').add(20).asInteger() == 50020",
      "isQuantity('1.3') && !isQuantity('1.3.4')",
    ],
    url: ["url('https://kubernetes.io:80/docs?x=1').getPort() == '80'", "url('https://kubernetes.io/a b').getEscapedPath() == '/a%20b'", "!isURL('not a url')"],
    ip: ["ip('192.168.0.1').family() == 4", "ip('::1').isLoopback()", "!isIP('1.2.3')", "ip.isCanonical('2001:db8::1')"],
    cidr: ["cidr('192.168.0.0/16').containsIP(ip('192.168.1.1'))", "cidr('10.0.0.0/8').prefixLength() == 8", "cidr('192.168.0.0/24').containsCIDR('192.168.0.0/25')"],
    semver: ["semver('1.2.3').isLessThan(semver('1.10.0'))", "semver('2.0.0').major() == 2", "isSemver('v1.0', true) && !isSemver('v1.0')"],
    format: ["format.dns1123Label().validate('my-name') == optional.none()", "format.named('dns1123Subdomain').value().validate('Bad_Name').hasValue()"],
    lists: ['[1, 2, 3].isSorted() && ![2, 1].isSorted()', '[1, 2, 3].sum() == 6 && [4, 1].min() == 1 && [4, 1].max() == 4', "['a', 'b', 'a'].lastIndexOf('a') == 2"],
    regex: ["'abc 123'.find('[0-9]+') == '123'", "'a1b2'.findAll('[0-9]') == ['1', '2']"],
  };
  for (const [lib, exprs] of Object.entries(truths)) {
    for (const e of exprs) {
      const r = await cli('eval', e);
      assert.deepEqual(r, { code: 0, out: { type: 'bool', value: true } }, `${lib}: ${e}`);
    }
  }
});

test('cel eval: Kubernetes library errors are evaluation errors with upstream messages', async () => {
  assert.deepEqual(await cli('eval', "quantity('1.3.4')"), { code: 1, out: { error: 'quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'' } });
  assert.equal((await cli('eval', "ip('1.2.3')")).code, 1);
  assert.equal((await cli('eval', '[].min()')).code, 1);
});
