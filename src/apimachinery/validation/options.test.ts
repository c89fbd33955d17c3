import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorString } from '../field/errors.ts';
import {
  newInvalidOptions,
  validateCreateOptions,
  validateDeleteOptions,
  validatePatchOptions,
} from './options.ts';

test('create options', () => {
  assert.deepEqual(validateCreateOptions({ dryRun: ['All'], fieldValidation: 'Strict', fieldManager: 'kubectl' }), []);
  const errs = validateCreateOptions({ dryRun: ['x'], fieldValidation: 'strict' });
  assert.deepEqual(errs.map(errorString), [
    'dryRun: Unsupported value: ["x"]: supported values: "All"',
    'fieldValidation: Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"',
  ]);
  assert.equal(
    newInvalidOptions('CreateOptions', errs.slice(0, 1)).message,
    'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["x"]: supported values: "All"',
  );
});

test('patch options', () => {
  assert.deepEqual(validatePatchOptions({}, 'application/apply-patch+yaml').map(errorString), [
    'fieldManager: Required value: is required for apply patch',
  ]);
  assert.deepEqual(validatePatchOptions({ force: true }, 'application/merge-patch+json').map(errorString), [
    'force: Forbidden: may not be specified for non-apply patch',
  ]);
  assert.deepEqual(validatePatchOptions({ force: true, fieldManager: 'm' }, 'application/apply-patch+yaml'), []);
});

test('delete options', () => {
  assert.deepEqual(validateDeleteOptions({ propagationPolicy: 'Background' }), []);
  assert.deepEqual(validateDeleteOptions({ propagationPolicy: 'Later', orphanDependents: true }).map(errorString), [
    'propagationPolicy: Invalid value: "Later": orphanDependents and deletionPropagation cannot be both set',
    'propagationPolicy: Unsupported value: "Later": supported values: "Foreground", "Background", "Orphan", "nil"',
  ]);
  assert.deepEqual(
    validateDeleteOptions({ ignoreStoreReadErrorWithClusterBreakingPotential: true, dryRun: ['All'], gracePeriodSeconds: 0 }).map(errorString),
    [
      'ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with .dryRun',
      'ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with .gracePeriodSeconds',
    ],
  );
});
