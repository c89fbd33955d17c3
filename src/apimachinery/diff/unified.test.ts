import { test } from 'node:test';
import assert from 'node:assert/strict';
import { objectDiff, unifiedDiff } from './unified.ts';

test('objectDiff: one changed list element, three lines of context, 1-space JSON indent (a cluster prints this for a PVC)', () => {
  const spec = (mode: string) => ({ AccessModes: [mode], Selector: null, Resources: { Limits: null, Requests: { storage: '1Gi' } }, VolumeName: '' });
  assert.equal(
    objectDiff(spec('ReadWriteMany'), spec('ReadWriteOnce')),
    '@@ -1,6 +1,6 @@\n {\n  "AccessModes": [\n-  "ReadWriteMany"\n+  "ReadWriteOnce"\n  ],\n  "Selector": null,\n  "Resources": {\n',
  );
});

test('unifiedDiff: equal texts give nothing; distant changes give separate hunks; the last line gets a newline', () => {
  assert.equal(unifiedDiff('a\nb', 'a\nb'), '');
  const a = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj';
  const b = 'A\nb\nc\nd\ne\nf\ng\nh\ni\nJ';
  assert.equal(unifiedDiff(a, b), '@@ -1,4 +1,4 @@\n-a\n+A\n b\n c\n d\n@@ -7,4 +7,4 @@\n g\n h\n i\n-j\n+J\n');
  assert.equal(unifiedDiff('x', 'x\ny'), '@@ -1 +1,2 @@\n x\n+y\n');
  assert.equal(unifiedDiff('x\ny', 'y'), '@@ -1,2 +1 @@\n-x\n y\n');
});
