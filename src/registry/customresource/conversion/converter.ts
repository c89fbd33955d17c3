/**
 * A CRD's converter of custom resources between its versions (apiextensions' crConverter over
 * the strategy's converter): both versions must be ones the CRD lists
 * (`request to convert CR to an invalid group/version: ...`), and the strategy does the rest.
 * Strategy None stays in the generic store (setting apiVersion, synchronously); this is the
 * asynchronous path of strategy Webhook.
 */
import type { Obj } from '../../rest.ts';
import { conversionError } from './webhook.ts';

/** Converts objects between the versions of one CRD. */
export interface VersionConverter {
  /**
   * `objects` at `toAPIVersion`, in order (those already there unchanged), converted together as a
   * list when `list`. Rejects with the API's error (500) when conversion fails.
   */
  convert(objects: readonly Obj[], toAPIVersion: string, list: boolean): Promise<Obj[]>;
}

/** nopConverter: the same objects at another version (apiVersion set; MUTATES them). */
export const nopConverter: VersionConverter = {
  convert(objects, toAPIVersion) {
    for (const o of objects) o.apiVersion = toAPIVersion;
    return Promise.resolve([...objects]);
  },
};

/** crConverter.ConvertToVersion over a strategy's converter, for a CRD of `group` with `versions`. */
export function crConverter(group: string, versions: readonly string[], strategy: VersionConverter): VersionConverter {
  const valid = new Set(versions.map((v) => `${group}/${v}`));
  return {
    convert(objects, toAPIVersion, list) {
      if (!valid.has(toAPIVersion)) return Promise.reject(conversionError(`request to convert CR to an invalid group/version: ${toAPIVersion}`));
      for (let i = 0; i < objects.length; i++) {
        const from = String(objects[i]!.apiVersion ?? '');
        if (valid.has(from)) continue;
        const msg = list ? `request to convert CR list failed, list index ${i} has invalid group/version: ${from}` : `request to convert CR from an invalid group/version: ${from}`;
        return Promise.reject(conversionError(msg));
      }
      return strategy.convert(objects, toAPIVersion, list);
    },
  };
}
