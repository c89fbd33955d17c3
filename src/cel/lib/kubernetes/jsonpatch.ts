/**
 * Kubernetes' JSON Patch library (k8s.io/apiserver/pkg/cel/library/jsonpatch.go):
 * `jsonpatch.escapeKey(string)` escapes a key for a JSON Pointer path (`~` -> `~0`, `/` -> `~1`),
 * as mutating admission policies build patch paths.
 */
import { StringType } from '../../check/types.ts';
import type { Library } from '../decls.ts';
import { fn, global } from '../define.ts';
import { stringCost } from './costs.ts';

/** RFC 6901 escaping of one reference token (strings.NewReplacer("/", "~1", "~", "~0")). */
export function escapeJSONPointerKey(k: string): string {
  return k.replace(/[~/]/g, (c) => (c === '~' ? '~0' : '~1'));
}

export const jsonPatchLibrary: Library = {
  name: 'kubernetes.jsonpatch',
  functions: [
    fn('jsonpatch.escapeKey', global('string_jsonpatch_escapeKey_string', [StringType], StringType, escapeJSONPointerKey, { cost: stringCost })),
  ],
};
