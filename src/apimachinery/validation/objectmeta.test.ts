import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Path } from '../field/path.ts';
import { errorString } from '../field/errors.ts';
import { nameIsDNSSubdomain, validatePathSegmentName } from './names.ts';
import { validateObjectMeta, validateObjectMetaUpdate, validateFieldManager } from './objectmeta.ts';
import { decodeObjectMeta, encodeObjectMeta } from './objectmeta-decode.ts';

const md = Path.of('metadata');
const create = (meta: Record<string, unknown>, ns = true) =>
  validateObjectMeta(meta, ns, validatePathSegmentName, md).map(errorString);
const update = (n: Record<string, unknown>, o: Record<string, unknown>) => validateObjectMetaUpdate(n, o, md).map(errorString);

const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

const createCases: Array<[string, Record<string, unknown>, boolean, string[]]> = [
  ['valid', { name: 'x', namespace: 'default', labels: { app: 'a' } }, true, []],
  ['no name', { namespace: 'default' }, true, ['metadata.name: Required value: name or generateName is required']],
  ['generateName only still needs a name', { generateName: 'x-', namespace: 'n' }, true, ['metadata.name: Required value: name or generateName is required']],
  ['path segment name', { name: '..', namespace: 'n' }, true, ["metadata.name: Invalid value: \"..\": may not be '..'"]],
  ['generateName with slash', { name: 'a', generateName: 'a/', namespace: 'n' }, true, ["metadata.generateName: Invalid value: \"a/\": may not contain '/'"]],
  ['namespace required', { name: 'a' }, true, ['metadata.namespace: Required value']],
  ['namespace forbidden', { name: 'a', namespace: 'n' }, false, ['metadata.namespace: Forbidden: not allowed on this type']],
  [
    'namespace not a label',
    { name: 'a', namespace: 'a.b' },
    true,
    ['metadata.namespace: Invalid value: "a.b": must not contain dots'],
  ],
  ['negative generation', { name: 'a', namespace: 'n', generation: -1 }, true, ['metadata.generation: Invalid value: -1: must be greater than or equal to 0']],
  ['bad label key', { name: 'a', namespace: 'n', labels: { 'a-': 'b' } }, true, [`metadata.labels: Invalid value: "a-": ${NAME_PART}`]],
  [
    'bad label value',
    { name: 'a', namespace: 'n', labels: { a: 'b c' } },
    true,
    [
      "metadata.labels: Invalid value: \"b c\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ],
  ],
  ['annotation key upper case allowed', { name: 'a', namespace: 'n', annotations: { 'Example.COM/Key': 'v' } }, true, []],
  [
    'annotations too large',
    { name: 'a', namespace: 'n', annotations: { a: 'x'.repeat(256 * 1024) } },
    true,
    ['metadata.annotations: Too long: may not be more than 262144 bytes'],
  ],
  [
    'finalizer both orphan and foreground',
    { name: 'a', namespace: 'n', finalizers: ['orphan', 'foregroundDeletion'] },
    true,
    ['metadata.finalizers: Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set'],
  ],
  ['bad finalizer', { name: 'a', namespace: 'n', finalizers: ['a/b/c'] }, true, [
    "metadata.finalizers: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
  ]],
  [
    'owner reference incomplete',
    { name: 'a', namespace: 'n', ownerReferences: [{ apiVersion: 'apps', kind: '', name: '', uid: '' }] },
    true,
    [
      'metadata.ownerReferences.kind: Invalid value: "": must not be empty',
      'metadata.ownerReferences.name: Invalid value: "": must not be empty',
      'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
    ],
  ],
  [
    'owner reference without version',
    { name: 'a', namespace: 'n', ownerReferences: [{ apiVersion: 'apps/', kind: 'K', name: 'x', uid: 'u' }] },
    true,
    ['metadata.ownerReferences.apiVersion: Invalid value: "apps/": version must not be empty'],
  ],
  [
    'event cannot own',
    { name: 'a', namespace: 'n', ownerReferences: [{ apiVersion: 'v1', kind: 'Event', name: 'e', uid: 'u' }] },
    true,
    ['metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"u"}: /v1, Kind=Event is disallowed from being an owner'],
  ],
  [
    'two controllers',
    {
      name: 'a',
      namespace: 'n',
      ownerReferences: [
        { apiVersion: 'v1', kind: 'A', name: 'a', uid: '1', controller: true },
        { apiVersion: 'v1', kind: 'B', name: 'b', uid: '2', controller: true },
      ],
    },
    true,
    [
      'metadata.ownerReferences: Invalid value: [{"apiVersion":"v1","kind":"A","name":"a","uid":"1","controller":true},{"apiVersion":"v1","kind":"B","name":"b","uid":"2","controller":true}]: Only one reference can have Controller set to true. Found "true" in references for A/a and B/b',
    ],
  ],
  [
    'managed fields shape',
    { name: 'a', namespace: 'n', managedFields: [{ manager: 'm', operation: 'Patch', fieldsType: 'FieldsV2' }] },
    true,
    [
      'metadata.managedFields[0].operation: Invalid value: "Patch": must be `Apply` or `Update`',
      'metadata.managedFields[0].fieldsType: Invalid value: "FieldsV2": must be `FieldsV1`',
    ],
  ],
  [
    'wrong JSON type in labels',
    { name: 'a', namespace: 'n', labels: { a: 1 } },
    true,
    [
      'metadata: Invalid value: {"labels":{"a":1},"name":"a","namespace":"n"}: json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string',
    ],
  ],
];

for (const [name, meta, ns, want] of createCases) {
  test(`validateObjectMeta: ${name}`, () => assert.deepEqual(create(meta, ns), want));
}

test('validateObjectMeta with DNS-subdomain names masks a trailing dash in generateName', () => {
  assert.deepEqual(validateObjectMeta({ name: 'ok', generateName: 'pre-' }, false, nameIsDNSSubdomain, md), []);
  assert.equal(validateObjectMeta({ name: 'Bad' }, false, nameIsDNSSubdomain, md).length, 1);
});

const base = {
  name: 'a',
  namespace: 'n',
  uid: 'u1',
  resourceVersion: '5',
  generation: 2,
  creationTimestamp: '2026-01-01T00:00:00Z',
};

const updateCases: Array<[string, Record<string, unknown>, Record<string, unknown>, string[]]> = [
  ['unchanged', base, base, []],
  ['no resourceVersion', { ...base, resourceVersion: '' }, base, ['metadata.resourceVersion: Invalid value: "": must be specified for an update']],
  ['generation decremented', { ...base, generation: 1 }, base, ['metadata.generation: Invalid value: 1: must not be decremented']],
  ['name changed', { ...base, name: 'b' }, base, ['metadata.name: Invalid value: "b": field is immutable']],
  ['namespace changed', { ...base, namespace: 'm' }, base, ['metadata.namespace: Invalid value: "m": field is immutable']],
  ['uid changed', { ...base, uid: 'u2' }, base, ['metadata.uid: Invalid value: "u2": field is immutable']],
  [
    'creationTimestamp changed',
    { ...base, creationTimestamp: '2026-01-02T00:00:00Z' },
    base,
    ['metadata.creationTimestamp: Invalid value: "2026-01-02T00:00:00Z": field is immutable'],
  ],
  ['creationTimestamp same instant other zone', { ...base, creationTimestamp: '2026-01-01T01:00:00+01:00' }, base, []],
  [
    'deletionTimestamp set by update',
    { ...base, deletionTimestamp: '2026-01-03T00:00:00Z' },
    base,
    ['metadata.deletionTimestamp: Invalid value: "2026-01-03T00:00:00Z": field is immutable'],
  ],
  [
    'deletionTimestamp cleared',
    base,
    { ...base, deletionTimestamp: '2026-01-03T00:00:00Z' },
    ['metadata.deletionTimestamp: Invalid value: null: field is immutable'],
  ],
  [
    'deletionGracePeriodSeconds changed',
    { ...base, deletionGracePeriodSeconds: 10 },
    base,
    ['metadata.deletionGracePeriodSeconds: Invalid value: 10: field is immutable'],
  ],
  [
    'new finalizer while deleting',
    { ...base, deletionTimestamp: '2026-01-03T00:00:00Z', finalizers: ['a', 'x/y', 'b'] },
    { ...base, deletionTimestamp: '2026-01-03T00:00:00Z', finalizers: ['a'] },
    ['metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"b", "x/y"}'],
  ],
  [
    'finalizer removed while deleting',
    { ...base, deletionTimestamp: '2026-01-03T00:00:00Z', finalizers: [] },
    { ...base, deletionTimestamp: '2026-01-03T00:00:00Z', finalizers: ['a'] },
    [],
  ],
  ['labels still validated', { ...base, labels: { a: '-' } }, base, [
    "metadata.labels: Invalid value: \"-\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
  ]],
];

for (const [name, n, o, want] of updateCases) {
  test(`validateObjectMetaUpdate: ${name}`, () => assert.deepEqual(update(n, o), want));
}

test('field manager: printable characters, 128 bytes', () => {
  assert.deepEqual(validateFieldManager('kubectl\x07x', Path.of('m')).map(errorString), [
    'm: Invalid value: "kubectl\\ax": invalid character U+0007 (at position 7)',
  ]);
  assert.deepEqual(validateFieldManager('a'.repeat(129), Path.of('m')).map(errorString), ['m: Too long: may not be more than 128 bytes']);
});

const decodeErrors: Array<[string, unknown, string]> = [
  ['string label value', { labels: { a: 1 } }, 'json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string'],
  ['labels not a map', { labels: 'x' }, 'json: cannot unmarshal string into Go struct field ObjectMeta.labels of type map[string]string'],
  ['labels an array', { labels: [] }, 'json: cannot unmarshal array into Go struct field ObjectMeta.labels of type map[string]string'],
  ['name number', { name: 5 }, 'json: cannot unmarshal number into Go struct field ObjectMeta.name of type string'],
  ['uid bool', { uid: true }, 'json: cannot unmarshal bool into Go struct field ObjectMeta.uid of type types.UID'],
  ['generation float', { generation: 1.5 }, 'json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.generation of type int64'],
  ['generation string', { generation: '1' }, 'json: cannot unmarshal string into Go struct field ObjectMeta.generation of type int64'],
  ['grace period huge', { deletionGracePeriodSeconds: 1e30 }, 'json: cannot unmarshal number 1e+30 into Go struct field ObjectMeta.deletionGracePeriodSeconds of type int64'],
  ['finalizers string', { finalizers: 'x' }, 'json: cannot unmarshal string into Go struct field ObjectMeta.finalizers of type []string'],
  ['finalizer number', { finalizers: [1] }, 'json: cannot unmarshal number into Go struct field ObjectMeta.finalizers of type string'],
  ['owner ref string', { ownerReferences: ['x'] }, 'json: cannot unmarshal string into Go struct field ObjectMeta.ownerReferences of type v1.OwnerReference'],
  ['owner ref field', { ownerReferences: [{ name: 1 }] }, 'json: cannot unmarshal number into Go struct field OwnerReference.ownerReferences.name of type string'],
  ['controller string', { ownerReferences: [{ controller: 'yes' }] }, 'json: cannot unmarshal string into Go struct field OwnerReference.ownerReferences.controller of type bool'],
  ['first error in key order wins', { namespace: 1, labels: 2 }, 'json: cannot unmarshal number into Go struct field ObjectMeta.labels of type map[string]string'],
  ['time not a string', { creationTimestamp: 5 }, 'json: cannot unmarshal number into Go value of type string'],
  ['time unparsable', { creationTimestamp: 'yesterday' }, 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"'],
  ['time error beats a type error', { annotations: 1, creationTimestamp: 'x' }, 'parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"'],
  ['metadata an array', [], 'json: cannot unmarshal array into Go value of type v1.ObjectMeta'],
];

for (const [name, input, want] of decodeErrors) {
  test(`decodeObjectMeta error: ${name}`, () => assert.equal(decodeObjectMeta(input).error, want));
}

test('decodeObjectMeta drops malformed fields when asked, keeps the rest', () => {
  const r = decodeObjectMeta({ name: 'a', labels: { a: 1 }, annotations: { k: 'v' }, bogus: 1 }, { dropMalformedFields: true });
  assert.deepEqual(r.meta, { name: 'a', annotations: { k: 'v' } });
  assert.equal(decodeObjectMeta('x', { dropMalformedFields: true }).error, 'invalid metadata: expected object, got string');
  assert.deepEqual(decodeObjectMeta(null).meta, {});
});

test('encodeObjectMeta: struct order, omitempty, creationTimestamp null, canonical times', () => {
  const d = decodeObjectMeta({
    labels: {},
    name: 'a',
    creationTimestamp: '2026-01-01T01:00:00.5+01:00',
    ownerReferences: [{ name: 'o', controller: true }],
    generation: 0,
    deletionGracePeriodSeconds: 0,
    unknown: 'dropped',
  });
  assert.ok(d.meta);
  assert.equal(
    JSON.stringify(encodeObjectMeta(d.meta)),
    '{"name":"a","creationTimestamp":"2026-01-01T00:00:00Z","deletionGracePeriodSeconds":0,"ownerReferences":[{"apiVersion":"","kind":"","name":"o","uid":"","controller":true}]}',
  );
  assert.deepEqual(encodeObjectMeta({ name: 'x' }), { name: 'x', creationTimestamp: null });
});

// From k8s.io/apimachinery pkg/api/validation/objectmeta_test.go (TestObjectMetaUpdate,
// TestObjectMetaGenerationUpdate): now = 1000s, later = 2000s after the epoch.
test('upstream TestObjectMetaUpdate and TestObjectMetaGenerationUpdate', () => {
  const now = '1970-01-01T00:16:40Z';
  const later = '1970-01-01T00:33:20Z';
  const m = (extra: Record<string, unknown>) => ({ name: 'test', resourceVersion: '1', ...extra });
  const table: Array<[Record<string, unknown>, Record<string, unknown>, string[]]> = [
    [m({}), m({}), []],
    [m({ deletionTimestamp: now, deletionGracePeriodSeconds: 30 }), m({ deletionTimestamp: now, deletionGracePeriodSeconds: 30 }), []],
    [m({}), m({ deletionTimestamp: now }), [`field.deletionTimestamp: Invalid value: "${now}": field is immutable`]],
    [m({ deletionTimestamp: now }), m({}), ['field.deletionTimestamp: Invalid value: null: field is immutable']],
    [m({ deletionTimestamp: now }), m({ deletionTimestamp: later }), [`field.deletionTimestamp: Invalid value: "${later}": field is immutable`]],
    [m({}), m({ deletionGracePeriodSeconds: 30 }), ['field.deletionGracePeriodSeconds: Invalid value: 30: field is immutable']],
    [m({ deletionGracePeriodSeconds: 30 }), m({}), ['field.deletionGracePeriodSeconds: Invalid value: null: field is immutable']],
    [m({ deletionGracePeriodSeconds: 30 }), m({ deletionGracePeriodSeconds: 40 }), ['field.deletionGracePeriodSeconds: Invalid value: 40: field is immutable']],
    [m({ generation: 5 }), m({ generation: 4 }), ['field.generation: Invalid value: 4: must not be decremented']],
    [m({ generation: 1 }), m({ generation: 2 }), []],
    [m({ generation: 5 }), m({ generation: 5 }), []],
  ];
  for (const [oldM, newM, want] of table) {
    assert.deepEqual(validateObjectMetaUpdate(newM, oldM, Path.of('field')).map(errorString), want, JSON.stringify([oldM, newM]));
  }
  assert.deepEqual(validateObjectMeta({ name: 'test', generateName: 'foo-' }, false, nameIsDNSSubdomain, Path.of('field')), []);
});
