/**
 * Storage keys as kube-apiserver lays them out: `/registry/<group>/<resource>/<namespace>/<name>`,
 * no namespace segment for cluster-scoped kinds, no group segment for the core group
 * (`/registry/namespaces/<name>`). Also the request checks upstream's NamespaceKeyFunc and
 * NoNamespaceKeyFunc make (`Namespace parameter required.`, `Name parameter invalid: ...`).
 */
import { newBadRequest } from '../apimachinery/index.ts';
import { goQuote } from '../apimachinery/index.ts';
import { isValidPathSegmentName } from '../apimachinery/index.ts';

/** The key prefix of a resource, ending in '/'. */
export function resourcePrefix(group: string, resource: string): string {
  return group === '' ? `/registry/${resource}/` : `/registry/${group}/${resource}/`;
}

/** Keys for one resource. */
export class KeyLayout {
  readonly prefix: string;

  constructor(
    group: string,
    resource: string,
    readonly namespaced: boolean,
  ) {
    this.prefix = resourcePrefix(group, resource);
  }

  /** The prefix a list or watch reads: the resource's, or one namespace's. */
  root(ns: string | undefined): string {
    return this.namespaced && ns ? `${this.prefix}${ns}/` : this.prefix;
  }

  /** The key of one object; throws 400 BadRequest as upstream's key functions do. */
  key(ns: string | undefined, name: string): string {
    if (this.namespaced && !ns) throw newBadRequest('Namespace parameter required.');
    if (name.length === 0) throw newBadRequest('Name parameter required.');
    const msgs = isValidPathSegmentName(name);
    if (msgs.length > 0) throw newBadRequest(`Name parameter invalid: ${goQuote(name)}: ${msgs.join(';')}`);
    return this.namespaced ? `${this.prefix}${ns}/${name}` : `${this.prefix}${name}`;
  }
}
