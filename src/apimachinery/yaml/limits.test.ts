/**
 * go-yaml's nesting limits (10000 flow levels, 10000 block levels: `exceeded max depth of 10000`),
 * documents deeper than the `yaml` package's composer can recurse, JSON's own depth limit on what
 * the conversion yields, and the alias-expansion limit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readYAML } from './index.ts';

function depthOf(v: unknown): number {
  let d = 0;
  while (v !== null && typeof v === 'object') {
    d++;
    v = Array.isArray(v) ? v[0] : Object.values(v)[0];
  }
  return d;
}

test('10000 nested flow sequences are read; 10001 are go-yaml\'s depth error', () => {
  assert.equal(depthOf(readYAML('['.repeat(10000) + ']'.repeat(10000)).value), 10000);
  assert.throws(() => readYAML('['.repeat(10001) + ']'.repeat(10001)), { message: 'yaml: exceeded max depth of 10000' });
  // Past the first line go-yaml names the line.
  assert.throws(() => readYAML('a:\n  ' + '{x: '.repeat(10001) + '}'.repeat(10001)), { message: 'yaml: line 2: exceeded max depth of 10000' });
});

test('10000 nested block sequences are read; 10001 are go-yaml\'s depth error', () => {
  // `- - - x`: each entry opens a block sequence one column further in.
  assert.equal(depthOf(readYAML('- '.repeat(10000) + 'x\n').value), 10000);
  assert.throws(() => readYAML('- '.repeat(10001) + 'x\n'), { message: 'yaml: exceeded max depth of 10000' });
});

test('block maps nested past the composer\'s own recursion are read whole', () => {
  let text = '';
  for (let i = 0; i < 2500; i++) text += `${' '.repeat(i)}k${i}:\n`;
  text += `${' '.repeat(2500)}leaf: 1\n`;
  const d = readYAML(text);
  assert.equal(depthOf(d.value), 2501);
  // Anchors and aliases across the composer's slices still bind in document order.
  const withAlias = 'a: &x ' + '['.repeat(900) + '1' + ']'.repeat(900) + '\nb: *x\n';
  const v = readYAML(withAlias).value as { a: unknown; b: unknown };
  assert.equal(depthOf(v.b), 900);
  assert.deepEqual(v.a, v.b);
});

test('a value nested past 10000 levels through aliases is refused as the JSON decoder refuses it', () => {
  // Each anchor nests the previous one 2000 levels deeper: the text is shallow, the value is not.
  let text = 'a0: &a0 1\n';
  for (let i = 1; i <= 6; i++) text += `a${i}: &a${i} ${'['.repeat(2000)}*a${i - 1}${']'.repeat(2000)}\n`;
  assert.throws(() => readYAML(text), { message: "invalid character '[' exceeded max depth" });
});

test('the billion laughs are excessive aliasing', () => {
  let text = 'a: &a [x,x,x,x,x,x,x,x,x]\n';
  for (const [p, c] of [['a', 'b'], ['b', 'c'], ['c', 'd'], ['d', 'e'], ['e', 'f'], ['f', 'g'], ['g', 'h'], ['h', 'i']]) {
    text += `${c}: &${c} [${Array(9).fill(`*${p}`).join(',')}]\n`;
  }
  const t0 = Date.now();
  assert.throws(() => readYAML(text), { message: 'yaml: document contains excessive aliasing' });
  assert.ok(Date.now() - t0 < 2000);
});

test('only the first document is read, as YAMLToJSON reads it', () => {
  assert.deepEqual(readYAML('a: 1\n---\nb: [\n').value, { a: 1 });
  assert.deepEqual(readYAML('---\nhello\n...\n}not yaml').value, 'hello');
});

test('a quoted scalar runs over lines at its parent\'s indentation, as libyaml reads it', () => {
  assert.deepEqual(readYAML('key: "line one\nline two"\n').value, { key: 'line one line two' });
  assert.deepEqual(readYAML('a:\n  b: \'x\n y\'\n  c: 1\n').value, { a: { b: 'x y', c: 1 } });
  assert.throws(() => readYAML('a: "x\n---\ny"\n'));
});
