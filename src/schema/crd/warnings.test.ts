// CRD schema warnings, after Kubernetes' TestGetUnrecognizedFormats and the CRD strategy's warnings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { schemaWarningsOnCreate, schemaWarningsOnUpdate } from './warnings.ts';
import { unrecognizedFormats } from '../validate/formats.ts';

test('unrecognized formats by type and compatibility version (TestGetUnrecognizedFormats)', () => {
  const cases: [string, string[], string, string[]][] = [
    ['', ['string'], '1.0', []],
    ['email', ['string'], '1.0', []],
    ['unknown-format', ['string'], '1.0', ['unknown-format']],
    ['k8s-short-name', ['string'], '1.34', []],
    ['k8s-long-name', ['string'], '1.33', ['k8s-long-name']],
    ['k8s-short-name', ['string'], '1.0', ['k8s-short-name']],
    ['k8sshortname', ['string'], '1.34', []],
    ['uuid', ['string'], '1.0', []],
    ['email', ['string'], '1.35', []],
    ['unknown-format', ['integer'], '1.0', ['unknown-format']],
    ['unknown-format', ['string', 'null'], '1.0', ['unknown-format']],
    ['unknown-format', [], '1.0', ['unknown-format']],
  ];
  for (const [f, types, v, want] of cases) assert.deepEqual(unrecognizedFormats(f, types, v), want, `${f} ${types} ${v}`);
});

test('warnings on create and newly introduced ones on update', () => {
  const mk = (fmt: string, setOf: string) => ({
    versions: [
      {
        name: 'v1',
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              a: { type: 'string', format: fmt },
              n: { type: 'integer', format: 'int32' },
              l: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: setOf } },
            },
          },
        },
      },
    ],
  });
  assert.deepEqual(schemaWarningsOnCreate(mk('colour', 'object')), [
    'unrecognized format "colour"',
    'x-kubernetes-list-type: set for items of type "object" is not supported by server-side apply or CEL validation rules',
  ]);
  assert.deepEqual(schemaWarningsOnUpdate(mk('colour', 'object'), mk('colour', 'object')), []);
  assert.deepEqual(schemaWarningsOnUpdate(mk('shade', 'array'), mk('colour', 'object')), [
    'unrecognized format "shade"',
    'x-kubernetes-list-type: set for items of type "array" is not supported by server-side apply or CEL validation rules',
  ]);
});
