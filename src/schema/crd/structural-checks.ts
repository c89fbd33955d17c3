/**
 * ValidateStructural (apiextensions-apiserver pkg/apiserver/schema/validation.go and complete.go):
 * the rules that make a schema structural — a type at every level, value validations under
 * allOf/anyOf/oneOf/not that only constrain what the structure already specifies, the
 * int-or-string and embedded-resource patterns, and `metadata` at the root limited to name and
 * generateName. Errors are sorted by their rendered text, as upstream sorts them.
 */
import { Path } from '../../apimachinery/index.ts';
import { errorString, forbidden, invalid, required, type FieldError } from '../../apimachinery/index.ts';
import { compileRegex, RegexSyntaxError } from '../../cel/index.ts';
import {
  isEmptyValueValidation,
  type Extensions,
  type Generic,
  type NestedValueValidation,
  type Structural,
  type ValueValidation,
} from '../structural.ts';

export interface StructuralValidationOptions {
  /** Allow additionalProperties inside allOf/anyOf/oneOf/not. */
  allowNestedAdditionalProperties?: boolean;
  /** Allow x-kubernetes-validations inside allOf (never inside anyOf/oneOf/not). */
  allowNestedXValidations?: boolean;
  /** Let properties under junctors match additionalProperties of the structure. */
  allowValidationPropertiesWithAdditionalProperties?: boolean;
}

const enum Level {
  Root,
  Item,
  Field,
}

/** ValidateStructural(fldPath, s): every violation, sorted by rendered message. */
export function validateStructural(fldPath: Path, s: Structural | undefined, opts: StructuralValidationOptions = {}): FieldError[] {
  const o: Required<StructuralValidationOptions> = {
    allowNestedAdditionalProperties: opts.allowNestedAdditionalProperties ?? false,
    allowNestedXValidations: opts.allowNestedXValidations ?? false,
    allowValidationPropertiesWithAdditionalProperties: opts.allowValidationPropertiesWithAdditionalProperties ?? false,
  };
  const errs: FieldError[] = [];
  invariants(s, Level.Root, fldPath, o, errs);
  if (s !== undefined) valueValidationCompleteness(s.valueValidation, s, fldPath, fldPath, o, errs);
  const keyed = errs.map((e) => [errorString(e), e] as const);
  keyed.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return keyed.map((x) => x[1]);
}

/** validateStructuralCompleteness: junctor properties/items must be specified by the structure. */
export function validateStructuralCompleteness(fldPath: Path, s: Structural | undefined, opts: StructuralValidationOptions = {}): FieldError[] {
  const errs: FieldError[] = [];
  if (s !== undefined) {
    valueValidationCompleteness(s.valueValidation, s, fldPath, fldPath, {
      allowNestedAdditionalProperties: opts.allowNestedAdditionalProperties ?? false,
      allowNestedXValidations: opts.allowNestedXValidations ?? false,
      allowValidationPropertiesWithAdditionalProperties: opts.allowValidationPropertiesWithAdditionalProperties ?? false,
    }, errs);
  }
  return errs;
}

function invariants(s: Structural | undefined, lvl: Level, p: Path, opts: Required<StructuralValidationOptions>, errs: FieldError[]): void {
  if (s === undefined) return;
  if (s.type === 'array' && s.items === undefined) errs.push(required(p.child('items'), 'must be specified'));
  invariants(s.items, Level.Item, p.child('items'), opts, errs);
  if (s.properties) for (const [k, v] of s.properties) invariants(v, Level.Field, p.child('properties').key(k), opts, errs);
  if (s.additionalProperties !== undefined) {
    if (lvl === Level.Root) errs.push(forbidden(p.child('additionalProperties'), 'must not be used at the root'));
    if (s.additionalProperties.structural !== undefined) {
      invariants(s.additionalProperties.structural, Level.Field, p.child('additionalProperties'), opts, errs);
    }
  }
  extensionsChecks(s, p, errs);
  valueValidationChecks(s.valueValidation, isIntOrStringAnyOfPattern(s), isIntOrStringAllOfPattern(s), lvl, p, opts, errs);

  const checkMetadata = lvl === Level.Root || s.xEmbeddedResource;
  if (s.xEmbeddedResource && s.type !== 'object') {
    if (s.type.length === 0) errs.push(required(p.child('type'), 'must be object if x-kubernetes-embedded-resource is true'));
    else errs.push(invalid(p.child('type'), s.type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (s.type.length === 0 && !s.xIntOrString && !s.xPreserveUnknownFields) {
    const detail =
      lvl === Level.Root
        ? 'must not be empty at the root'
        : lvl === Level.Item
          ? 'must not be empty for specified array items'
          : 'must not be empty for specified object fields';
    errs.push(required(p.child('type'), detail));
  }
  if (s.xEmbeddedResource && s.additionalProperties !== undefined) {
    errs.push(forbidden(p.child('additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'));
  }
  if (lvl === Level.Root && s.type.length > 0 && s.type !== 'object') {
    errs.push(invalid(p.child('type'), s.type, 'must be object at the root'));
  }
  const kind = s.properties?.get('kind');
  if (kind !== undefined && checkMetadata && kind.type !== 'string') {
    errs.push(invalid(p.child('properties').key('kind').child('type'), kind.type, 'must be string'));
  }
  const apiVersion = s.properties?.get('apiVersion');
  if (apiVersion !== undefined && checkMetadata && apiVersion.type !== 'string') {
    errs.push(invalid(p.child('properties').key('apiVersion').child('type'), apiVersion.type, 'must be string'));
  }
  const metadata = s.properties?.get('metadata');
  if (metadata !== undefined) metadataInvariants(metadata, checkMetadata, lvl, p.child('properties').key('metadata'), errs);
  if (s.xEmbeddedResource && !s.xPreserveUnknownFields && (s.properties === undefined || s.properties.size === 0)) {
    errs.push(
      required(p.child('properties'), 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'),
    );
  }
}

function metadataInvariants(s: Structural, checkMetadata: boolean, lvl: Level, p: Path, errs: FieldError[]): void {
  if (checkMetadata && s.type !== 'object') errs.push(invalid(p.child('type'), s.type, 'must be object'));
  if (lvl !== Level.Root) return;
  // Only name and generateName constraints are allowed; type and default are checked elsewhere.
  let props = s.properties;
  if (props !== undefined) {
    const n = props.has('name');
    const g = props.has('generateName');
    if ((n && g && props.size === 2) || ((n || g) && props.size === 1)) props = undefined;
  }
  const clean =
    props === undefined &&
    s.items === undefined &&
    s.additionalProperties === undefined &&
    s.description === '' &&
    s.title === '' &&
    !s.nullable &&
    s.externalDocs === undefined &&
    s.example === undefined &&
    extensionsEmpty(s) &&
    s.xValidations === undefined &&
    isEmptyValueValidation(s.valueValidation);
  if (!clean) {
    errs.push(forbidden(p, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
  }
}

function extensionsEmpty(x: Extensions): boolean {
  return (
    !x.xPreserveUnknownFields &&
    !x.xEmbeddedResource &&
    !x.xIntOrString &&
    x.xListMapKeys === undefined &&
    x.xListType === undefined &&
    x.xMapType === undefined
  );
}

function genericEmpty(g: Generic): boolean {
  return g.description === '' && g.type === '' && g.title === '' && g.default === undefined && !g.nullable && g.externalDocs === undefined && g.example === undefined;
}

/** True for `{type: t}` under a junctor and nothing else (the int-or-string anyOf clauses). */
function isOnlyType(v: NestedValueValidation, t: string): boolean {
  return (
    isEmptyValueValidation(v) &&
    v.xValidations === undefined &&
    v.items === undefined &&
    v.properties === undefined &&
    v.additionalProperties === undefined &&
    v.forbiddenGenerics.type === t &&
    genericEmpty({ ...v.forbiddenGenerics, type: '' }) &&
    extensionsEmpty(v.forbiddenExtensions)
  );
}

function isIntOrStringAnyOf(anyOf: NestedValueValidation[] | undefined): boolean {
  return anyOf !== undefined && anyOf.length === 2 && isOnlyType(anyOf[0]!, 'integer') && isOnlyType(anyOf[1]!, 'string');
}

/** anyOf: [{type: integer}, {type: string}] — allowed with x-kubernetes-int-or-string. */
export function isIntOrStringAnyOfPattern(s: Structural | undefined): boolean {
  return s?.valueValidation !== undefined && isIntOrStringAnyOf(s.valueValidation.anyOf);
}

/** allOf: [{anyOf: [{type: integer}, {type: string}]}, ...] */
export function isIntOrStringAllOfPattern(s: Structural | undefined): boolean {
  const allOf = s?.valueValidation?.allOf;
  return allOf !== undefined && allOf.length >= 1 && isIntOrStringAnyOf(allOf[0]!.anyOf);
}

function extensionsChecks(x: Extensions, p: Path, errs: FieldError[]): void {
  if (x.xIntOrString && x.xPreserveUnknownFields) {
    errs.push(invalid(p.child('x-kubernetes-preserve-unknown-fields'), x.xPreserveUnknownFields, 'must be false if x-kubernetes-int-or-string is true'));
  }
  if (x.xIntOrString && x.xEmbeddedResource) {
    errs.push(invalid(p.child('x-kubernetes-embedded-resource'), x.xEmbeddedResource, 'must be false if x-kubernetes-int-or-string is true'));
  }
}

function valueValidationChecks(
  v: ValueValidation | undefined,
  skipAnyOf: boolean,
  skipFirstAllOfAnyOf: boolean,
  lvl: Level,
  p: Path,
  opts: Required<StructuralValidationOptions>,
  errs: FieldError[],
): void {
  if (v === undefined) return;
  const noCEL = { ...opts, allowNestedXValidations: false };
  if (!skipAnyOf && v.anyOf) v.anyOf.forEach((x, i) => nestedChecks(x, false, false, lvl, p.child('anyOf').index(i), noCEL, errs));
  if (v.allOf) v.allOf.forEach((x, i) => nestedChecks(x, skipFirstAllOfAnyOf && i === 0, false, lvl, p.child('allOf').index(i), opts, errs));
  if (v.oneOf) v.oneOf.forEach((x, i) => nestedChecks(x, false, false, lvl, p.child('oneOf').index(i), noCEL, errs));
  nestedChecks(v.not, false, false, lvl, p.child('not'), noCEL, errs);
  if (v.pattern.length > 0) {
    try {
      compileRegex(v.pattern);
    } catch (e) {
      if (!(e instanceof RegexSyntaxError)) throw e;
      errs.push(invalid(p.child('pattern'), v.pattern, `must be a valid regular expression, but isn't: ${e.message}`));
    }
  }
}

function nestedChecks(
  v: NestedValueValidation | undefined,
  skipAnyOf: boolean,
  skipAllOfAnyOf: boolean,
  lvl: Level,
  p: Path,
  opts: Required<StructuralValidationOptions>,
  errs: FieldError[],
): void {
  if (v === undefined) return;
  valueValidationChecks(v, skipAnyOf, skipAllOfAnyOf, lvl, p, opts, errs);
  nestedChecks(v.items, false, false, lvl, p.child('items'), opts, errs);
  if (v.properties) for (const [k, f] of v.properties) nestedChecks(f, false, false, Level.Field, p.child('properties').key(k), opts, errs);
  const g = v.forbiddenGenerics;
  if (g.type.length > 0) errs.push(forbidden(p.child('type'), 'must be empty to be structural'));
  if (v.additionalProperties !== undefined && !opts.allowNestedAdditionalProperties) {
    errs.push(forbidden(p.child('additionalProperties'), 'must be undefined to be structural'));
  } else {
    nestedChecks(v.additionalProperties, false, false, lvl, p.child('additionalProperties'), opts, errs);
  }
  if (g.default !== undefined) errs.push(forbidden(p.child('default'), 'must be undefined to be structural'));
  if (g.title.length > 0) errs.push(forbidden(p.child('title'), 'must be empty to be structural'));
  if (g.description.length > 0) errs.push(forbidden(p.child('description'), 'must be empty to be structural'));
  if (g.nullable) errs.push(forbidden(p.child('nullable'), 'must be false to be structural'));
  const x = v.forbiddenExtensions;
  if (x.xPreserveUnknownFields) errs.push(forbidden(p.child('x-kubernetes-preserve-unknown-fields'), 'must be false to be structural'));
  if (x.xEmbeddedResource) errs.push(forbidden(p.child('x-kubernetes-embedded-resource'), 'must be false to be structural'));
  if (x.xIntOrString) errs.push(forbidden(p.child('x-kubernetes-int-or-string'), 'must be false to be structural'));
  if (x.xListMapKeys !== undefined && x.xListMapKeys.length > 0) errs.push(forbidden(p.child('x-kubernetes-list-map-keys'), 'must be empty to be structural'));
  if (x.xListType !== undefined) errs.push(forbidden(p.child('x-kubernetes-list-type'), 'must be undefined to be structural'));
  if (x.xMapType !== undefined) errs.push(forbidden(p.child('x-kubernetes-map-type'), 'must be undefined to be structural'));
  if (v.xValidations !== undefined && v.xValidations.length > 0 && !opts.allowNestedXValidations) {
    errs.push(forbidden(p.child('x-kubernetes-validations'), 'must be empty to be structural'));
  }
  if (v.properties?.has('metadata')) errs.push(forbidden(p.child('properties').key('metadata'), 'must not be specified in a nested context'));
}

function valueValidationCompleteness(
  v: ValueValidation | undefined,
  s: Structural | undefined,
  sPath: Path,
  vPath: Path,
  opts: Required<StructuralValidationOptions>,
  errs: FieldError[],
): void {
  if (v === undefined) return;
  if (s === undefined) {
    errs.push(required(sPath, `because it is defined in ${vPath.toString()}`));
    return;
  }
  nestedCompleteness(v.not, s, sPath, vPath.child('not'), opts, errs);
  v.allOf?.forEach((x, i) => nestedCompleteness(x, s, sPath, vPath.child('allOf').index(i), opts, errs));
  v.anyOf?.forEach((x, i) => nestedCompleteness(x, s, sPath, vPath.child('anyOf').index(i), opts, errs));
  v.oneOf?.forEach((x, i) => nestedCompleteness(x, s, sPath, vPath.child('oneOf').index(i), opts, errs));
}

function nestedCompleteness(
  v: NestedValueValidation | undefined,
  s: Structural | undefined,
  sPath: Path,
  vPath: Path,
  opts: Required<StructuralValidationOptions>,
  errs: FieldError[],
): void {
  if (v === undefined) return;
  if (s === undefined) {
    errs.push(required(sPath, `because it is defined in ${vPath.toString()}`));
    return;
  }
  valueValidationCompleteness(v, s, sPath, vPath, opts, errs);
  nestedCompleteness(v.items, s.items, sPath.child('items'), vPath.child('items'), opts, errs);
  const sAP = s.additionalProperties?.structural;
  if (v.properties) {
    for (const [k, vFld] of v.properties) {
      const sFld = s.properties?.get(k);
      if (sFld === undefined) {
        if (sAP === undefined || !opts.allowValidationPropertiesWithAdditionalProperties) {
          errs.push(required(sPath.child('properties').key(k), `because it is defined in ${vPath.child('properties').key(k).toString()}`));
        } else {
          nestedCompleteness(vFld, sAP, sPath.child('additionalProperties'), vPath.child('properties').key(k), opts, errs);
        }
      } else {
        nestedCompleteness(vFld, sFld, sPath.child('properties').key(k), vPath.child('properties').key(k), opts, errs);
      }
    }
  }
  if (v.additionalProperties !== undefined && opts.allowNestedAdditionalProperties) {
    nestedCompleteness(v.additionalProperties, sAP, sPath.child('additionalProperties'), vPath.child('additionalProperties'), opts, errs);
  }
}
