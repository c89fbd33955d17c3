/**
 * Validation of a CRD's `openAPIV3Schema` (apiextensions-apiserver
 * pkg/apis/apiextensions/validation/validation.go: validateCustomResourceDefinitionValidation and
 * ValidateCustomResourceDefinitionOpenAPISchema): unsupported keywords, defaults where they are not
 * allowed, the x-kubernetes-* extension rules, structural-ness, pruned and valid defaults, and the
 * static checks of x-kubernetes-validations entries.
 *
 * Compiling the CEL rules themselves (type errors, cost limits, oldSelf correlation) belongs to
 * src/schema/cel/ and is not done here yet: rules are only checked for well-formedness.
 */
import { Path } from '../../apimachinery/index.ts';
import { forbidden, invalid, notSupported, required, type FieldError } from '../../apimachinery/index.ts';
import { validFieldPath } from '../fieldpath.ts';
import { newStructural, StructuralError, type Structural } from '../structural.ts';
import { additionalPropertiesAllows, additionalPropertiesSchema, itemsSchema, type JSONSchemaProps } from '../types.ts';
import { validateDefaults } from './defaults.ts';
import { validateStructural } from './structural-checks.ts';
import { validateRulesAtCRDWrite } from '../cel/crd-rules.ts';

/** validationOptions: what a create or update of the CRD requires of its schemas. */
export interface SchemaValidationOptions {
  allowDefaults?: boolean;
  disallowDefaultsReason?: string;
  requireValidPropertyType?: boolean;
  requireStructuralSchema?: boolean;
  requirePrunedDefaults?: boolean;
  requireAtomicSetType?: boolean;
  requireMapListKeysMapSetValidation?: boolean;
  /** The schema is unchanged from the stored CRD: rules' per-expression cost limits are not re-applied. */
  suppressPerExpressionCost?: boolean;
  /** The Kubernetes version whose CEL environment compiles rules ("1.30"); default the current one. */
  celCompatibilityVersion?: string;
}

/** The options a new CRD (create) is validated with. */
export const createOptions: Required<Omit<SchemaValidationOptions, 'disallowDefaultsReason' | 'suppressPerExpressionCost' | 'celCompatibilityVersion'>> = {
  allowDefaults: true,
  requireValidPropertyType: true,
  requireStructuralSchema: true,
  requirePrunedDefaults: true,
  requireAtomicSetType: true,
  requireMapListKeysMapSetValidation: true,
};

const openapiV3Types = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const supportedValidationReasons = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const metaFields = new Set(['metadata', 'kind', 'apiVersion']);

/** JSONSchemaProps fields in Go struct order, with their JSON keys (for the status-root rule). */
const rootFieldOrder: [goName: string, key: keyof JSONSchemaProps][] = [
  ['ID', 'id'],
  ['Schema', '$schema'],
  ['Ref', '$ref'],
  ['Description', 'description'],
  ['Type', 'type'],
  ['Format', 'format'],
  ['Title', 'title'],
  ['Default', 'default'],
  ['Maximum', 'maximum'],
  ['ExclusiveMaximum', 'exclusiveMaximum'],
  ['Minimum', 'minimum'],
  ['ExclusiveMinimum', 'exclusiveMinimum'],
  ['MaxLength', 'maxLength'],
  ['MinLength', 'minLength'],
  ['Pattern', 'pattern'],
  ['MaxItems', 'maxItems'],
  ['MinItems', 'minItems'],
  ['UniqueItems', 'uniqueItems'],
  ['MultipleOf', 'multipleOf'],
  ['Enum', 'enum'],
  ['MaxProperties', 'maxProperties'],
  ['MinProperties', 'minProperties'],
  ['Required', 'required'],
  ['Items', 'items'],
  ['AllOf', 'allOf'],
  ['OneOf', 'oneOf'],
  ['AnyOf', 'anyOf'],
  ['Not', 'not'],
  ['Properties', 'properties'],
  ['AdditionalProperties', 'additionalProperties'],
  ['PatternProperties', 'patternProperties'],
  ['Dependencies', 'dependencies'],
  ['AdditionalItems', 'additionalItems'],
  ['Definitions', 'definitions'],
  ['ExternalDocs', 'externalDocs'],
  ['Example', 'example'],
  ['Nullable', 'nullable'],
  ['XPreserveUnknownFields', 'x-kubernetes-preserve-unknown-fields'],
  ['XEmbeddedResource', 'x-kubernetes-embedded-resource'],
  ['XIntOrString', 'x-kubernetes-int-or-string'],
  ['XListMapKeys', 'x-kubernetes-list-map-keys'],
  ['XListType', 'x-kubernetes-list-type'],
  ['XMapType', 'x-kubernetes-map-type'],
  ['XValidations', 'x-kubernetes-validations'],
];

const allowedFieldsAtRootSchema = [
  'Description',
  'Type',
  'Format',
  'Title',
  'Maximum',
  'ExclusiveMaximum',
  'Minimum',
  'ExclusiveMinimum',
  'MaxLength',
  'MinLength',
  'Pattern',
  'MaxItems',
  'MinItems',
  'UniqueItems',
  'MultipleOf',
  'Required',
  'Items',
  'Properties',
  'ExternalDocs',
  'Example',
  'XPreserveUnknownFields',
  'XValidations',
];

/** Go's zero value test for a decoded field (nil pointer, "", false, 0 for non-pointers). */
function isZero(key: keyof JSONSchemaProps, v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (v === false || v === '') return true;
  // Pointer fields (maximum, maxLength, ...) are non-zero even at 0; only the flags above are values.
  void key;
  return false;
}

/** specStandardValidatorV3 state, cloned on the way down. */
interface SSV {
  allowDefaults: boolean;
  disallowDefaultsReason: string;
  insideResourceMeta: boolean;
  requireValidPropertyType: boolean;
}

/** specStandardValidatorV3.validate: keywords Kubernetes never supports, defaults where forbidden. */
function ssvValidate(v: SSV, s: JSONSchemaProps, p: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (v.requireValidPropertyType && s.type && !openapiV3Types.includes(s.type)) {
    errs.push(notSupported(p.child('type'), s.type, openapiV3Types));
  }
  if (s.default !== undefined && s.default !== null && !v.allowDefaults) {
    let detail = 'must not be set';
    if (v.disallowDefaultsReason.length > 0) detail += ' ' + v.disallowDefaultsReason;
    errs.push(forbidden(p.child('default'), detail));
  }
  if (s.id) errs.push(forbidden(p.child('id'), 'id is not supported'));
  if (s.additionalItems !== undefined && s.additionalItems !== null) errs.push(forbidden(p.child('additionalItems'), 'additionalItems is not supported'));
  if (s.patternProperties && Object.keys(s.patternProperties).length > 0) errs.push(forbidden(p.child('patternProperties'), 'patternProperties is not supported'));
  if (s.definitions && Object.keys(s.definitions).length > 0) errs.push(forbidden(p.child('definitions'), 'definitions is not supported'));
  if (s.dependencies !== undefined && s.dependencies !== null) errs.push(forbidden(p.child('dependencies'), 'dependencies is not supported'));
  if (s.$ref !== undefined && s.$ref !== null) errs.push(forbidden(p.child('$ref'), '$ref is not supported'));
  if (s.type === 'null') errs.push(forbidden(p.child('type'), 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s.items) && s.items.length > 0) errs.push(forbidden(p.child('items'), 'items must be a schema object and not an array'));
  if (v.insideResourceMeta && s['x-kubernetes-embedded-resource'] === true) {
    errs.push(forbidden(p.child('x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'));
  }
  return errs;
}

const hasNewlines = (s: string) => /[\n\r]+/.test(s);

function validateMapListKeysMapSet(s: JSONSchemaProps, p: Path): FieldError[] {
  const items = itemsSchema(s);
  const lt = s['x-kubernetes-list-type'];
  if (items === undefined || lt === undefined || lt === null || (lt !== 'set' && lt !== 'map')) return [];
  const errs: FieldError[] = [];
  if (items.nullable) errs.push(forbidden(p.child('items').child('nullable'), 'cannot be nullable when x-kubernetes-list-type is ' + lt));
  if (lt === 'map') {
    const req = new Set(items.required ?? []);
    for (const k of s['x-kubernetes-list-map-keys'] ?? []) {
      const obj = items.properties?.[k];
      if (obj === undefined) continue;
      if (!req.has(k) && (obj.default === undefined || obj.default === null)) {
        errs.push(
          required(p.child('items').child('properties').key(k).child('default'), 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'),
        );
      }
      if (obj.nullable) {
        errs.push(forbidden(p.child('items').child('properties').key(k).child('nullable'), 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
      }
    }
  }
  return errs;
}

/**
 * ValidateCustomResourceDefinitionOpenAPISchema: every node of the schema (recursively), with the
 * restrictions that apply where the node sits (inside resource metadata, at the root).
 */
export function validateOpenAPISchema(
  schema: JSONSchemaProps | null | undefined,
  p: Path,
  ssv: SSV,
  isRoot: boolean,
  opts: SchemaValidationOptions,
): FieldError[] {
  if (schema === null || schema === undefined) return [];
  const errs: FieldError[] = [...ssvValidate(ssv, schema, p)];
  if (schema.uniqueItems) errs.push(forbidden(p.child('uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));

  const ap = schema.additionalProperties;
  if (ap !== undefined && ap !== null) {
    const props = schema.properties ?? {};
    if (Object.keys(props).length !== 0 && (!additionalPropertiesAllows(schema) || additionalPropertiesSchema(schema) !== undefined)) {
      errs.push(forbidden(p.child('additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
    }
    const sub = ssv.insideResourceMeta
      ? { ...ssv, allowDefaults: false, disallowDefaultsReason: 'inside additionalProperties applying to object metadata' }
      : ssv;
    errs.push(...validateOpenAPISchema(additionalPropertiesSchema(schema), p.child('additionalProperties'), sub, false, opts));
  }
  if (schema.properties) {
    for (const [prop, js] of Object.entries(schema.properties)) {
      let sub = ssv;
      if ((isRoot || schema['x-kubernetes-embedded-resource'] === true) && metaFields.has(prop)) {
        sub = { ...sub, insideResourceMeta: true };
        if (isRoot) sub = { ...sub, allowDefaults: false, disallowDefaultsReason: `in top-level ${prop}` };
      }
      errs.push(...validateOpenAPISchema(js, p.child('properties').key(prop), sub, false, opts));
    }
  }
  errs.push(...validateOpenAPISchema(schema.not, p.child('not'), ssv, false, opts));
  schema.allOf?.forEach((x, i) => errs.push(...validateOpenAPISchema(x, p.child('allOf').index(i), ssv, false, opts)));
  schema.oneOf?.forEach((x, i) => errs.push(...validateOpenAPISchema(x, p.child('oneOf').index(i), ssv, false, opts)));
  schema.anyOf?.forEach((x, i) => errs.push(...validateOpenAPISchema(x, p.child('anyOf').index(i), ssv, false, opts)));
  if (schema.definitions) {
    for (const [k, x] of Object.entries(schema.definitions)) errs.push(...validateOpenAPISchema(x, p.child('definitions').key(k), ssv, false, opts));
  }
  if (schema.items !== undefined && schema.items !== null) {
    if (Array.isArray(schema.items)) {
      schema.items.forEach((x, i) => errs.push(...validateOpenAPISchema(x, p.child('items').index(i), ssv, false, opts)));
    } else {
      errs.push(...validateOpenAPISchema(schema.items, p.child('items'), ssv, false, opts));
    }
  }
  if (schema.dependencies) {
    for (const [k, d] of Object.entries(schema.dependencies)) {
      if (!Array.isArray(d)) errs.push(...validateOpenAPISchema(d, p.child('dependencies').key(k), ssv, false, opts));
    }
  }
  const pres = schema['x-kubernetes-preserve-unknown-fields'];
  if (pres === false) errs.push(invalid(p.child('x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));

  const type = schema.type ?? '';
  const mapType = schema['x-kubernetes-map-type'];
  if (mapType !== undefined && mapType !== null && type !== 'object') {
    if (type.length === 0) errs.push(required(p.child('type'), 'must be object if x-kubernetes-map-type is specified'));
    else errs.push(invalid(p.child('type'), type, 'must be object if x-kubernetes-map-type is specified'));
  }
  if (mapType !== undefined && mapType !== null && mapType !== 'atomic' && mapType !== 'granular') {
    errs.push(notSupported(p.child('x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  }
  const listType = schema['x-kubernetes-list-type'];
  const items = itemsSchema(schema);
  if (listType !== undefined && listType !== null && type !== 'array') {
    if (type.length === 0) errs.push(required(p.child('type'), 'must be array if x-kubernetes-list-type is specified'));
    else errs.push(invalid(p.child('type'), type, 'must be array if x-kubernetes-list-type is specified'));
  } else if (opts.requireAtomicSetType && listType === 'set' && items !== undefined) {
    if (items.type === 'array') {
      const ilt = items['x-kubernetes-list-type'];
      if (ilt !== undefined && ilt !== null && ilt !== 'atomic') {
        errs.push(invalid(p.child('items').child('x-kubernetes-list-type'), ilt, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
      }
    } else if (items.type === 'object') {
      const imt = items['x-kubernetes-map-type'];
      if (imt === undefined || imt === null || imt !== 'atomic') {
        errs.push(invalid(p.child('items').child('x-kubernetes-map-type'), items['x-kubernetes-list-type'] ?? null, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
      }
    }
  }
  if (listType !== undefined && listType !== null && listType !== 'atomic' && listType !== 'set' && listType !== 'map') {
    errs.push(notSupported(p.child('x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']));
  }
  const mapKeys = schema['x-kubernetes-list-map-keys'];
  if (mapKeys && mapKeys.length > 0) {
    if (listType === undefined || listType === null) errs.push(required(p.child('x-kubernetes-list-type'), 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (listType !== 'map') errs.push(invalid(p.child('x-kubernetes-list-type'), listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  if (listType === 'map') {
    if (!mapKeys || mapKeys.length === 0) errs.push(required(p.child('x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'));
    if (schema.items === undefined || schema.items === null) errs.push(required(p.child('items'), 'must have a schema if x-kubernetes-list-type is map'));
    if (Array.isArray(schema.items)) errs.push(invalid(p.child('items'), schema.items, 'must only have a single schema if x-kubernetes-list-type is map'));
    if (items !== undefined && items.type !== 'object') {
      errs.push(invalid(p.child('items').child('type'), items.type ?? '', "must be object if parent array's x-kubernetes-list-type is map"));
    }
    if (items !== undefined && items.type === 'object') {
      const seen = new Set<string>();
      for (const k of mapKeys ?? []) {
        const ks = items.properties?.[k];
        if (ks !== undefined) {
          if (ks.type === 'array' || ks.type === 'object') {
            errs.push(invalid(p.child('items').child('properties').key(k).child('type'), items.type, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
          }
        } else {
          errs.push(invalid(p.child('x-kubernetes-list-map-keys'), mapKeys, 'entries must all be names of item properties'));
        }
        if (seen.has(k)) errs.push(invalid(p.child('x-kubernetes-list-map-keys'), mapKeys, 'must not contain duplicate entries'));
        seen.add(k);
      }
    }
  }
  if (opts.requireMapListKeysMapSetValidation) errs.push(...validateMapListKeysMapSet(schema, p));

  const rules = schema['x-kubernetes-validations'];
  if (rules && rules.length > 0) {
    rules.forEach((rule, i) => {
      const rp = p.child('x-kubernetes-validations').index(i);
      const r = (rule.rule ?? '').trim();
      const message = rule.message ?? '';
      const m = message.trim();
      const messageExpression = rule.messageExpression ?? '';
      if (r.length === 0) errs.push(required(rp.child('rule'), 'rule is not specified'));
      else if (message.length > 0 && m.length === 0) errs.push(invalid(rp.child('message'), message, 'must be non-empty if specified'));
      else if (hasNewlines(m)) errs.push(invalid(rp.child('message'), message, 'must not contain line breaks'));
      else if (hasNewlines(r) && m.length === 0) errs.push(required(rp.child('message'), 'message must be specified if rule contains line breaks'));
      if (messageExpression.length > 0 && messageExpression.trim().length === 0) {
        errs.push(required(rp.child('messageExpression'), 'messageExpression must be non-empty if specified'));
      }
      if (rule.reason !== undefined && rule.reason !== null && !supportedValidationReasons.includes(rule.reason)) {
        errs.push(notSupported(rp.child('reason'), rule.reason, supportedValidationReasons));
      }
      const fp = rule.fieldPath ?? '';
      if (fp.length > 0 && fp.trim().length === 0) errs.push(invalid(rp.child('fieldPath'), fp, 'must be non-empty if specified'));
      if (hasNewlines(fp)) errs.push(invalid(rp.child('fieldPath'), fp, 'must not contain line breaks'));
      if (fp.length > 0 && !pathValid(schema, fp)) errs.push(invalid(rp.child('fieldPath'), fp, 'must be a valid path'));
    });
  }
  return errs;
}

function pathValid(schema: JSONSchemaProps, path: string): boolean {
  let ss;
  try {
    ss = newStructural(schema);
  } catch {
    return true;
  }
  return validFieldPath(path, ss).error === undefined;
}

/**
 * validateCustomResourceDefinitionValidation: the `validation` (CustomResourceValidation) of a CRD
 * or of one version, at fldPath (`spec.validation` / `spec.versions[i].schema`).
 */
export function validateCustomResourceValidation(
  validation: { openAPIV3Schema?: JSONSchemaProps | null } | null | undefined,
  statusSubresourceEnabled: boolean,
  opts: SchemaValidationOptions,
  fldPath: Path,
): FieldError[] {
  const errs: FieldError[] = [];
  const schema = validation?.openAPIV3Schema;
  if (schema === undefined || schema === null) return errs;
  const sp = fldPath.child('openAPIV3Schema');
  if (statusSubresourceEnabled) {
    for (const [goName, key] of rootFieldOrder) {
      if (isZero(key, schema[key])) continue;
      if (goName === 'Type') {
        if (schema.type !== 'object') {
          errs.push(invalid(fldPath.child('openAPIV3Schema.type'), schema.type, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled'));
          break;
        }
        continue;
      }
      if (!allowedFieldsAtRootSchema.includes(goName)) {
        errs.push(invalid(sp, schema, `only [${allowedFieldsAtRootSchema.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`));
        break;
      }
    }
  }
  if (schema.nullable) errs.push(forbidden(fldPath.child('openAPIV3Schema.nullable'), 'nullable cannot be true at the root'));

  const ssv: SSV = {
    allowDefaults: opts.allowDefaults === true,
    disallowDefaultsReason: opts.disallowDefaultsReason ?? '',
    insideResourceMeta: false,
    requireValidPropertyType: opts.requireValidPropertyType === true,
  };
  const initErrs: FieldError[] = [];
  let celContext = false;
  let ss: Structural | undefined;
  if (opts.requireStructuralSchema) {
    try {
      ss = newStructural(schema);
    } catch (e) {
      if (!(e instanceof StructuralError)) throw e;
      initErrs.push(invalid(sp, '', e.message));
    }
    if (ss !== undefined) {
      const se = validateStructural(sp, ss);
      if (se.length > 0) errs.push(...se);
      else {
        try {
          const de = validateDefaults(sp, ss, true, opts.requirePrunedDefaults === true);
          errs.push(...de);
          // Upstream creates the CEL context (and so compiles rules) only for a structural
          // schema whose defaults are valid.
          celContext = de.length === 0;
        } catch (e) {
          errs.push(invalid(sp, '', (e as Error).message));
        }
      }
    }
  }
  errs.push(...validateOpenAPISchema(schema, sp, ssv, true, opts));
  if (errs.length === 0 && initErrs.length > 0) errs.push(...initErrs);
  if (celContext) {
    const at = (node: string) => (e: FieldError) => e.field === node || e.field.startsWith(node + '.') || e.field.startsWith(node + '[');
    const rules = validateRulesAtCRDWrite(schema, sp, {
      suppressPerExpressionCost: opts.suppressPerExpressionCost === true,
      hasSchemaErrors: (node) => errs.some(at(node)),
      ...(opts.celCompatibilityVersion !== undefined ? { compatibilityVersion: opts.celCompatibilityVersion } : {}),
      structural: ss,
    });
    errs.push(...rules.errors);
  }
  return errs;
}
