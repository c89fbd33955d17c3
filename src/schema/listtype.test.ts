// list-type set/map uniqueness, from Kubernetes' listtype/validation_test.go (listtype.json:
// multiset of (type, field)).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { validateListSetsAndMaps } from './listtype.ts';
import { newStructural } from './structural.ts';
import { Path } from '../apimachinery/index.ts';
import { errorString } from '../apimachinery/index.ts';
import type { JSONSchemaProps } from './types.ts';
import { loadVectors, Tally } from './vectors.ts';

interface Case {
  name: string;
  schema: JSONSchemaProps | null;
  object: unknown;
  expectErrorDetails: { type: string; field: string }[];
}

const file = loadVectors<Case>('listtype.json', { keepIntegralFloats: true });
const tally = new Tally('listtype.json');
after(() => console.log(tally.summary()));

const key = (e: { type: string; field: string }) => `${e.type} ${e.field}`;

for (const c of file.cases) {
  test(`listtype: ${c.name}`, () => {
    const errs = validateListSetsAndMaps(Path.root('root'), c.schema === null ? undefined : newStructural(c.schema), c.object);
    try {
      assert.deepEqual(errs.map(key).sort(), c.expectErrorDetails.map(key).sort());
      tally.passed++;
    } catch (e) {
      tally.failed++;
      throw e;
    }
  });
}

test('listtype: duplicate values print as Kubernetes prints them', () => {
  const s = newStructural({
    type: 'object',
    properties: {
      ports: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['port', 'protocol'],
        items: { type: 'object', properties: { port: { type: 'integer' }, protocol: { type: 'string' } } },
      },
      tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
    },
  });
  const errs = validateListSetsAndMaps(Path.of('spec'), s, {
    ports: [{ port: 80, protocol: 'TCP' }, { port: 80, protocol: 'TCP', name: 'x' }],
    tags: ['a', 'b', 'a'],
  }).map(errorString);
  assert.deepEqual(errs.sort(), [
    'spec.ports[1]: Duplicate value: {"port":80,"protocol":"TCP"}',
    'spec.tags[2]: Duplicate value: "a"',
  ]);
});
