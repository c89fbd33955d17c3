/**
 * The ConversionReview exchange of a conversion webhook (apiextensions' webhook_converter.go):
 * which objects need converting, the review sent in the first version of the CRD's
 * `conversionReviewVersions` this server speaks (v1 or v1beta1), and the checks on the answer
 * (its type for v1, a response, the request's uid for v1, a Success result) with upstream's texts.
 */
import { randomUUID } from 'node:crypto';
import type { Obj } from '../../rest.ts';
import { isObject } from '../../crd/internal.ts';

/** The review versions this server speaks. */
export type ReviewVersion = 'v1' | 'v1beta1';

/** createConversionReviewObjects' choice: the first of `versions` known here, else its error. */
export function reviewVersion(versions: readonly unknown[]): ReviewVersion | { error: string } {
  for (const v of versions) if (v === 'v1' || v === 'v1beta1') return v;
  return { error: 'no supported conversion review versions' };
}

/** getObjectsToConvert: the objects not already at `apiVersion`, in order. */
export function objectsToConvert(objects: readonly Obj[], apiVersion: string): Obj[] {
  return objects.filter((o) => o.apiVersion !== apiVersion);
}

/** A new request uid. */
export function newReviewUID(): string {
  return randomUUID();
}

/** The ConversionReview sent to the webhook. */
export function conversionReview(version: ReviewVersion, uid: string, desiredAPIVersion: string, objects: readonly Obj[]): Obj {
  return {
    kind: 'ConversionReview',
    apiVersion: `apiextensions.k8s.io/${version}`,
    request: { uid, desiredAPIVersion, objects },
  };
}

/** schema.FromAPIVersionAndKind(...).String(): `group/version, Kind=kind`. */
export function gvkString(apiVersion: unknown, kind: unknown): string {
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const slash = av.indexOf('/');
  const gv = slash < 0 ? `/${av}` : av;
  return `${gv}, Kind=${typeof kind === 'string' ? kind : ''}`;
}

/**
 * getConvertedObjectsFromResponse: the converted objects of the webhook's answer (decoded as the
 * review type that was sent), or the reason it is refused.
 */
export function convertedObjects(version: ReviewVersion, expectedUID: string, body: unknown): { objects: unknown[] } | { error: string } {
  if (!isObject(body)) return { error: 'unrecognized response type' };
  if (version === 'v1' && (body.apiVersion !== 'apiextensions.k8s.io/v1' || body.kind !== 'ConversionReview')) {
    return { error: `expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got ${gvkString(body.apiVersion, body.kind)}` };
  }
  const response = body.response;
  if (!isObject(response)) return { error: 'no response provided' };
  // v1beta1's uid was never checked, and is still not (backward compatibility).
  if (version === 'v1') {
    const uid = typeof response.uid === 'string' ? response.uid : '';
    if (uid !== expectedUID) return { error: `expected response.uid=${JSON.stringify(expectedUID)}, got ${JSON.stringify(uid)}` };
  }
  const result = isObject(response.result) ? response.result : {};
  const status = typeof result.status === 'string' ? result.status : '';
  if (status !== 'Success') {
    if (typeof result.message === 'string' && result.message !== '') return { error: result.message };
    return { error: `response.result.status was '${status}', not 'Success'` };
  }
  return { objects: Array.isArray(response.convertedObjects) ? response.convertedObjects : [] };
}
