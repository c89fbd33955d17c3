/**
 * The errors strategic merge patch returns, with upstream's exact messages
 * (k8s.io/apimachinery/pkg/util/mergepatch/errors.go and the inline errors of
 * pkg/util/strategicpatch), and the HTTP status each gets.
 *
 * kube-apiserver's patch handler (interpretStrategicMergePatchError in
 * k8s.io/apiserver/pkg/endpoints/handlers/patch.go) answers 400 BadRequest for the bad-document and
 * bad-directive-format errors and 422 for lists of lists and retainKeys mismatches; every other
 * error reaches the client as a non-Status error, which kube-apiserver serves as a 500 with an
 * empty reason and the message unchanged (`upstreamCode`). Those are all caused by the patch's
 * content, so `code` answers them with 400 BadRequest and the same message instead.
 */
import { goSprint, goTypeName, GoPanic, type JSONMap } from './go-value.ts';

export type StatusCode = 400 | 422;

export class StrategicMergePatchError extends Error {
  /** The HTTP status to answer with. */
  readonly code: StatusCode;
  /** The status kube-apiserver answers with (500 where it has no Status for the error). */
  readonly upstreamCode: 400 | 422 | 500;

  constructor(message: string, upstreamCode: 400 | 422 | 500) {
    super(message);
    this.name = 'StrategicMergePatchError';
    this.upstreamCode = upstreamCode;
    this.code = upstreamCode === 422 ? 422 : 400;
  }
}

const badRequest = (m: string) => new StrategicMergePatchError(m, 400);
const unprocessable = (m: string) => new StrategicMergePatchError(m, 422);
/** An error kube-apiserver has no Status for. */
export const unclassified = (m: string) => new StrategicMergePatchError(m, 500);

/** mergepatch.ErrBadJSONDoc */
export const errBadJSONDoc = () => badRequest('invalid JSON document');
/** mergepatch.ErrNoListOfLists */
export const errNoListOfLists = () => unprocessable('lists of lists are not supported');
/** mergepatch.ErrBadPatchFormatForPrimitiveList */
export const errBadPatchFormatForPrimitiveList = () => badRequest('invalid patch format of primitive list');
/** mergepatch.ErrBadPatchFormatForRetainKeys */
export const errBadPatchFormatForRetainKeys = () => badRequest('invalid patch format of retainKeys');
/** mergepatch.ErrBadPatchFormatForSetElementOrderList */
export const errBadPatchFormatForSetElementOrderList = () =>
  badRequest('invalid patch format of setElementOrder list');

/** mergepatch.ErrNoMergeKey */
export const errNoMergeKey = (m: JSONMap, key: string) =>
  unclassified(`map: ${goSprint(m)} does not contain declared merge key: ${key}`);

/** mergepatch.ErrBadArgType: `expected` is the Go type the value was asserted to. */
export const errBadArgType = (expected: 'map' | 'slice', actual: unknown) =>
  unclassified(
    `expected a ${expected === 'map' ? 'map[string]interface {}' : '[]interface {}'}, but received a ${goTypeName(actual)}`,
  );

/** mergepatch.ErrBadPatchType */
export const errBadPatchType = (t: unknown, m: JSONMap) =>
  unclassified(`unknown patch type: ${goSprint(t, 's')} in map: ${goSprint(m)}`);

/** A Go panic on the same input, as the message of an error (upstream answers it with a 500). */
export function fromPanic(e: GoPanic): StrategicMergePatchError {
  return unclassified(e.message);
}
