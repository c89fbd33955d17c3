/**
 * ObjectMeta and TypeMeta inside custom resources (apiextensions-apiserver
 * pkg/apiserver/schema/objectmeta): at the resource root and at every
 * x-kubernetes-embedded-resource, `metadata` is coerced to metav1.ObjectMeta (unknown fields
 * dropped and reported, malformed fields dropped or rejected) and embedded resources are validated
 * (apiVersion, kind, metadata as for a created object). Both walks are compiled once per schema
 * and only visit subtrees that contain an embedded resource.
 */
import { Path } from '../apimachinery/index.ts';
import { invalid, required, type FieldError } from '../apimachinery/index.ts';
import { decodeObjectMeta, encodeObjectMeta, validateObjectMeta } from '../apimachinery/index.ts';
import { isDNS1035Label, validatePathSegmentName } from '../apimachinery/index.ts';
import type { Structural } from './structural.ts';
import { emptyStructural } from './structural.ts';
import { canonicalObjectMeta } from './objectmeta-canonical.ts';
import { isObject } from './value.ts';

export interface CoerceOptions {
  /** Drop malformed apiVersion/kind/metadata fields instead of failing. */
  dropInvalidFields?: boolean;
  /** Report unknown ObjectMeta fields as paths (`metadata.foo`). */
  returnUnknownFieldPaths?: boolean;
}

export interface CoerceResult {
  error?: FieldError;
  unknownFieldPaths: string[];
}

export { managedFieldsFields, objectMetaFields, ownerReferenceFields } from '../apimachinery/index.ts';
import { objectMetaFields, ownerReferenceFields, managedFieldsFields } from '../apimachinery/index.ts';

/** The unknown-field paths kjson.UnmarshalStrict reports for metadata, prefixed with `prefix`. */
export function unknownObjectMetaPaths(meta: unknown, prefix: string): string[] {
  if (!isObject(meta)) return [];
  const out: string[] = [];
  for (const k of Object.keys(meta)) {
    if (!objectMetaFields.has(k)) out.push(`${prefix}.${k}`);
  }
  const nested = (key: string, known: ReadonlySet<string>) => {
    const list = meta[key];
    if (!Array.isArray(list)) return;
    list.forEach((x, i) => {
      if (isObject(x)) for (const k of Object.keys(x)) if (!known.has(k)) out.push(`${prefix}.${key}[${i}].${k}`);
    });
  };
  nested('ownerReferences', ownerReferenceFields);
  nested('managedFields', managedFieldsFields);
  return out;
}

function withEmbedded(s: Structural | undefined, isResourceRoot: boolean): Structural | undefined {
  if (!isResourceRoot) return s;
  const base = s ?? emptyStructural();
  return base.xEmbeddedResource ? base : { ...base, xEmbeddedResource: true };
}

const embeddedCache = new WeakMap<Structural, boolean>();

/** Whether an embedded resource occurs at or below s (cached per schema node). */
function hasEmbedded(s: Structural | undefined): boolean {
  if (s === undefined) return false;
  let r = embeddedCache.get(s);
  if (r === undefined) {
    embeddedCache.set(s, false); // guards against cycles while computing
    r =
      s.xEmbeddedResource ||
      hasEmbedded(s.items) ||
      (s.properties !== undefined && [...s.properties.values()].some((p) => hasEmbedded(p))) ||
      hasEmbedded(s.additionalProperties?.structural);
    embeddedCache.set(s, r);
  }
  return r;
}

/**
 * CoerceWithOptions(pth, obj, s, isResourceRoot, opts): MUTATES obj — each embedded `metadata` is
 * replaced by its ObjectMeta encoding (creationTimestamp removed when unset). Stops at the first
 * error, as upstream.
 */
export function coerce(pth: Path | undefined, obj: unknown, s: Structural | undefined, isResourceRoot: boolean, opts: CoerceOptions = {}): CoerceResult {
  return compileCoercer(s, isResourceRoot)(pth, obj, opts);
}

/** A coercer compiled for one schema (see coerce). */
export type Coercer = (pth: Path | undefined, obj: unknown, opts?: CoerceOptions) => CoerceResult;

/** The coercer of a schema without embedded resources: nothing to do. */
export const noCoercion: Coercer = () => ({ unknownFieldPaths: [] });

/** Compile coerce(·, ·, s, isResourceRoot, ·) once per schema. */
export function compileCoercer(s: Structural | undefined, isResourceRoot: boolean): Coercer {
  const root = withEmbedded(s, isResourceRoot);
  if (root === undefined || !hasEmbedded(root)) return noCoercion;
  return (pth, obj, opts = {}) => {
    const res: CoerceResult = { unknownFieldPaths: [] };
    const err = coerceNode(pth, obj, root, opts, res);
    if (err !== undefined) res.error = err;
    if (res.unknownFieldPaths.length > 1) res.unknownFieldPaths.sort();
    return res;
  };
}

const child = (p: Path | undefined, name: string) => (p === undefined ? Path.of(name) : p.child(name));

function coerceNode(pth: Path | undefined, x: unknown, s: Structural | undefined, opts: CoerceOptions, res: CoerceResult): FieldError | undefined {
  if (s === undefined) return undefined;
  if (Array.isArray(x)) {
    if (!hasEmbedded(s.items)) return undefined;
    for (let i = 0; i < x.length; i++) {
      const e = coerceNode((pth ?? Path.root()).index(i), x[i], s.items, opts, res);
      if (e) return e;
    }
    return undefined;
  }
  if (!isObject(x)) return undefined;
  for (const k of Object.keys(x)) {
    const v = x[k];
    if (s.xEmbeddedResource) {
      if (k === 'apiVersion' || k === 'kind') {
        if (typeof v !== 'string') {
          if (opts.dropInvalidFields) delete x[k];
          else return invalid(child(pth, k), v, 'must be a string');
        }
      } else if (k === 'metadata') {
        if (opts.returnUnknownFieldPaths) res.unknownFieldPaths.push(...unknownObjectMetaPaths(v, child(pth, 'metadata').toString()));
        const fast = canonicalObjectMeta(v);
        const d = fast === undefined ? decodeObjectMeta(v, { dropMalformedFields: opts.dropInvalidFields === true }) : undefined;
        if (d?.error !== undefined) {
          if (!opts.dropInvalidFields) return invalid(child(pth, 'metadata'), v, d.error);
        } else {
          const enc = fast ?? encodeObjectMeta(d!.meta);
          if (enc.creationTimestamp === null || enc.creationTimestamp === undefined) delete enc.creationTimestamp;
          x.metadata = enc;
        }
      }
    }
    const prop = s.properties?.get(k);
    if (prop !== undefined) {
      if (hasEmbedded(prop)) {
        const e = coerceNode(child(pth, k), x[k], prop, opts, res);
        if (e) return e;
      }
    } else if (s.additionalProperties !== undefined) {
      const ap = s.additionalProperties.structural;
      if (hasEmbedded(ap)) {
        const e = coerceNode((pth ?? Path.root()).key(k), x[k], ap, opts, res);
        if (e) return e;
      }
    }
  }
  return undefined;
}

/** schema.ParseGroupVersion's error, or undefined. */
function parseGroupVersionError(gv: string): string | undefined {
  if (gv.length === 0 || gv === '/') return undefined;
  const n = gv.split('/').length - 1;
  return n <= 1 ? undefined : `unexpected GroupVersion string: ${gv}`;
}

/** Validation of embedded resources, compiled for a schema. */
export type EmbeddedValidator = (obj: unknown, pth?: Path) => FieldError[];

/**
 * Validate(pth, obj, s, isResourceRoot): apiVersion and kind present and well-formed, metadata
 * valid as for a created object, at every embedded resource (and the root when isResourceRoot).
 */
/** The validator of a schema without embedded resources. */
export const noEmbeddedResources: EmbeddedValidator = () => [];

export function compileEmbeddedValidator(s: Structural | undefined, isResourceRoot: boolean): EmbeddedValidator {
  const root = withEmbedded(s, isResourceRoot);
  if (root === undefined || !hasEmbedded(root)) return noEmbeddedResources;
  return (obj, pth) => {
    const errs: FieldError[] = [];
    validateNode(pth, obj, root, errs);
    return errs;
  };
}

/** objectmeta.Validate in one call. */
export function validateEmbedded(pth: Path | undefined, obj: unknown, s: Structural | undefined, isResourceRoot: boolean): FieldError[] {
  return compileEmbeddedValidator(s, isResourceRoot)(obj, pth);
}

function validateNode(pth: Path | undefined, x: unknown, s: Structural | undefined, errs: FieldError[]): void {
  if (s === undefined || !hasEmbedded(s)) return;
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) validateNode((pth ?? Path.root()).index(i), x[i], s.items, errs);
    return;
  }
  if (!isObject(x)) return;
  if (s.xEmbeddedResource) validateEmbeddedResource(pth, x, errs);
  for (const k of Object.keys(x)) {
    const prop = s.properties?.get(k);
    if (prop !== undefined) validateNode(child(pth, k), x[k], prop, errs);
    else if (s.additionalProperties !== undefined) validateNode((pth ?? Path.root()).key(k), x[k], s.additionalProperties.structural, errs);
  }
}

function validateEmbeddedResource(pth: Path | undefined, x: Record<string, unknown>, errs: FieldError[]): void {
  if (!Object.hasOwn(x, 'apiVersion')) errs.push(required(child(pth, 'apiVersion'), ''));
  if (!Object.hasOwn(x, 'kind')) errs.push(required(child(pth, 'kind'), ''));
  for (const k of Object.keys(x)) {
    const v = x[k];
    if (k === 'apiVersion') {
      if (typeof v !== 'string') errs.push(invalid(child(pth, 'apiVersion'), v, 'must be a string'));
      else if (v.length === 0) errs.push(invalid(child(pth, 'apiVersion'), v, 'must not be empty'));
      else {
        const e = parseGroupVersionError(v);
        if (e !== undefined) errs.push(invalid(child(pth, 'apiVersion'), v, e));
      }
    } else if (k === 'kind') {
      if (typeof v !== 'string') errs.push(invalid(child(pth, 'kind'), v, 'must be a string'));
      else if (v.length === 0) errs.push(invalid(child(pth, 'kind'), v, 'must not be empty'));
      else {
        const e = isDNS1035Label(v.toLowerCase());
        if (e.length > 0) errs.push(invalid(child(pth, 'kind'), v, 'may have mixed case, but should otherwise match: ' + e.join(',')));
      }
    } else if (k === 'metadata') {
      const d = decodeObjectMeta(v);
      if (d.error !== undefined) {
        errs.push(invalid(child(pth, 'metadata'), v, d.error));
      } else {
        const meta = { ...d.meta };
        if (!meta.name) meta.name = 'fakename'; // upstream sets something to avoid a required error
        errs.push(...validateObjectMeta(meta, (meta.namespace ?? '').length > 0, validatePathSegmentName, child(pth, 'metadata')));
      }
    }
  }
}
