// Embedded resources and metadata coercion (after Kubernetes' objectmeta algorithm/validation tests).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coerce, validateEmbedded } from './objectmeta.ts';
import { newStructural } from './structural.ts';
import { errorString } from '../apimachinery/index.ts';

const schema = newStructural({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
  },
});

test('coerce drops unknown ObjectMeta fields at the root and in embedded resources, reporting them', () => {
  const obj: Record<string, any> = {
    apiVersion: 'a/v1',
    kind: 'A',
    metadata: { name: 'x', bogus: 1, labels: { a: 'b' } },
    spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', junk: true } } },
  };
  const r = coerce(undefined, obj, schema, true, { returnUnknownFieldPaths: true });
  assert.equal(r.error, undefined);
  assert.deepEqual(r.unknownFieldPaths, ['metadata.bogus', 'spec.template.metadata.junk']);
  assert.deepEqual(obj.metadata, { name: 'x', labels: { a: 'b' } });
  assert.deepEqual(obj.spec.template.metadata, { name: 'p' });
});

test('coerce rejects malformed metadata unless dropping', () => {
  const obj = { spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 5 } } } };
  const r = coerce(undefined, obj, schema, false);
  assert.ok(r.error);
  assert.equal(r.error.field, 'spec.template.metadata');
  const obj2: Record<string, any> = { spec: { template: { apiVersion: 3, kind: 'Pod', metadata: { name: 5, namespace: 'n' } } } };
  assert.equal(coerce(undefined, obj2, schema, false, { dropInvalidFields: true }).error, undefined);
  assert.deepEqual(obj2.spec.template, { kind: 'Pod', metadata: { namespace: 'n' } });
});

test('embedded resources need apiVersion, kind and valid metadata', () => {
  const errs = validateEmbedded(undefined, { spec: { template: { kind: 'not a kind!', metadata: { name: 'a/b' } } } }, schema, false).map(errorString);
  assert.deepEqual(errs.sort(), [
    'spec.template.apiVersion: Required value',
    'spec.template.kind: Invalid value: "not a kind!": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character (e.g. \'my-name\',  or \'abc-123\', regex used for validation is \'[a-z]([-a-z0-9]*[a-z0-9])?\')',
    'spec.template.metadata.name: Invalid value: "a/b": may not contain \'/\'',
  ]);
  assert.deepEqual(validateEmbedded(undefined, { spec: { template: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: {} } } }, schema, false), []);
});

// Ported from objectmeta/validation_test.go: (type, field) multisets.
const R = (f: string) => `FieldValueRequired ${f}`;
const I = (f: string) => `FieldValueInvalid ${f}`;
const kinds = (errs: { type: string; field: string }[]) => errs.map((e) => `${e.type} ${e.field}`).sort();

test('objectmeta validation_test: TestValidateEmbeddedResource', () => {
  const root = newStructural({ 'x-kubernetes-embedded-resource': true });
  const cases: [string, unknown, string[]][] = [
    ['empty', {}, [R('apiVersion'), R('kind')]],
    ['version and kind', { apiVersion: 'foo/v1', kind: 'Foo' }, []],
    ['invalid kind', { apiVersion: 'foo/v1', kind: 'foo.bar-com' }, [I('kind')]],
    ['no name', { apiVersion: 'foo/v1', kind: 'Foo', metadata: { namespace: 'kube-system' } }, []],
    ['no namespace', { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'foo' } }, []],
    [
      'invalid',
      { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: '..', namespace: '$$$', labels: { '#': '#' }, annotations: { '#': '#' } } },
      [I('metadata.name'), I('metadata.namespace'), I('metadata.labels'), I('metadata.labels'), I('metadata.annotations')],
    ],
  ];
  for (const [name, obj, want] of cases) assert.deepEqual(kinds(validateEmbedded(undefined, obj, root, false)), want.sort(), name);
});

test('objectmeta validation_test: TestValidate', () => {
  const schema = newStructural({
    properties: {
      embedded: { 'x-kubernetes-embedded-resource': true },
      nested: { 'x-kubernetes-embedded-resource': true, properties: { embedded: { 'x-kubernetes-embedded-resource': true } } },
      items: { items: { 'x-kubernetes-embedded-resource': true } },
      additionalProperties: { additionalProperties: { 'x-kubernetes-embedded-resource': true } },
    },
  });
  const cases: [string, unknown, boolean, string[]][] = [
    ['empty', {}, false, []],
    ['include root', {}, true, [R('apiVersion'), R('kind')]],
    ['embedded', { embedded: {} }, false, [R('embedded.apiVersion'), R('embedded.kind')]],
    ['nested', { nested: { embedded: {} } }, false, [R('nested.apiVersion'), R('nested.kind'), R('nested.embedded.apiVersion'), R('nested.embedded.kind')]],
    ['items', { items: [{}] }, false, [R('items[0].apiVersion'), R('items[0].kind')]],
    ['additionalProperties', { additionalProperties: { foo: {} } }, false, [R('additionalProperties[foo].apiVersion'), R('additionalProperties[foo].kind')]],
  ];
  for (const [name, obj, root, want] of cases) assert.deepEqual(kinds(validateEmbedded(undefined, obj, schema, root)), want.sort(), name);
});

// Ported from objectmeta/algorithm_test.go (TestCoerce).
test('objectmeta algorithm_test: TestCoerce', () => {
  const res = (extra: Record<string, unknown> = {}) => ({
    apiVersion: 'foo/v1',
    kind: 'Foo',
    unspecified: 'bar',
    metadata: { name: 'instance', unspecified: 'bar' },
    spec: { unspecified: 'bar', ...extra },
    ...{},
  });
  const input = () => ({
    apiVersion: 'foo/v1',
    kind: 'Foo',
    metadata: { name: 'instance', unspecified: 'bar' },
    unspecified: 'bar',
    pruned: res(),
    preserving: res(),
    nested: res({ embedded: res() }),
  });
  const clean = (o: any) => {
    o.metadata = { name: 'instance' };
    return o;
  };
  const expected = (root: boolean) => {
    const o: any = input();
    clean(o.pruned);
    clean(o.preserving);
    clean(o.nested);
    clean(o.nested.spec.embedded);
    if (root) clean(o);
    return o;
  };
  const schema = newStructural({
    type: 'object',
    properties: {
      pruned: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } },
      preserving: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
      nested: {
        type: 'object',
        'x-kubernetes-embedded-resource': true,
        properties: {
          spec: {
            type: 'object',
            properties: { embedded: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } } },
          },
        },
      },
    },
  });
  const unknown = ['nested.metadata.unspecified', 'nested.spec.embedded.metadata.unspecified', 'preserving.metadata.unspecified', 'pruned.metadata.unspecified'];
  for (const root of [false, true]) {
    const obj = input();
    const r = coerce(undefined, obj, schema, root, { returnUnknownFieldPaths: true });
    assert.equal(r.error, undefined);
    assert.deepEqual(obj, expected(root));
    assert.deepEqual(r.unknownFieldPaths, root ? ['metadata.unspecified', ...unknown] : unknown);
  }

  const pruned = newStructural({ properties: { pruned: { 'x-kubernetes-embedded-resource': true, properties: { spec: {} } } } });
  const withoutName = { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'instance' }, pruned: { apiVersion: 'foo/v1', kind: 'Foo', metadata: { namespace: 'kube-system' } } };
  const o1 = structuredClone(withoutName);
  assert.equal(coerce(undefined, o1, pruned, false, { returnUnknownFieldPaths: true }).error, undefined);
  assert.deepEqual(o1, withoutName);

  const o2: any = { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'instance' }, pruned: { apiVersion: 42, kind: 42, metadata: { name: 'instance', namespace: ['abc'], labels: { foo: 42 } } } };
  assert.equal(coerce(undefined, o2, pruned, false, { dropInvalidFields: true }).error, undefined);
  assert.deepEqual(o2.pruned, { metadata: { name: 'instance' } });

  const o3: any = { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'instance' }, pruned: { apiVersion: 42, kind: 42, metadata: [42] } };
  assert.equal(coerce(undefined, o3, pruned, false, { dropInvalidFields: true }).error, undefined);
  assert.deepEqual(o3.pruned, { metadata: [42] });
});
