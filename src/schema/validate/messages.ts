/**
 * kube-openapi's validation error catalogue (pkg/validation/errors) and its translation into
 * Kubernetes field errors (apiextensions-apiserver kubeOpenAPIResultToFieldErrors). Messages name
 * the failing value by its kube-openapi path (`spec.replicas in body ...`); the field error's path
 * is that name with a leading dot trimmed, joined to the caller's base path.
 */
import {
  invalid,
  required,
  supportedValuesDetail,
  tooLongMaxLength,
  tooMany,
  typeInvalid,
  type FieldError,
} from '../../apimachinery/index.ts';
import { goFloatString, goQuote } from '../../apimachinery/index.ts';
import { goJSONMarshal } from '../value.ts';

export type OpenAPICode =
  | 'InvalidType'
  | 'Required'
  | 'TooLong'
  | 'TooShort'
  | 'Pattern'
  | 'Enum'
  | 'MultipleOf'
  | 'Max'
  | 'Min'
  | 'Unique'
  | 'MaxItems'
  | 'MinItems'
  | 'TooFewProperties'
  | 'TooManyProperties'
  | 'UnallowedProperty'
  | 'MultipleOfMustBePositive'
  /** errors.New / fmt.Errorf: not a *Validation, reported at the base path with value "". */
  | 'Composite';

/** One kube-openapi error. */
export interface OpenAPIError {
  code: OpenAPICode;
  /** The kube-openapi path (`spec.replicas`, `.foo`, `[0]`); '' for composite errors. */
  name: string;
  /** name without its leading '.', when the validator knows it (else toFieldError trims name). */
  field?: string;
  value: unknown;
  /** The limit, for TooLong / MaxItems / TooManyProperties. */
  valid?: number;
  /** The allowed values, for Enum. */
  values?: readonly unknown[];
  /** For Enum, when known: the NotSupported detail listing the values (else computed from values). */
  detail?: string;
  message: string;
}

/** Go's %v of a float64 limit. */
export const fv = (f: number): string => goFloatString(f);

export const msg = {
  typeFailWithData: (name: string, typeName: string, value: string) => name + msg.typeFailMiddle(typeName) + goQ(value),
  /** typeFailWithData between the name and the quoted value. */
  typeFailMiddle: (typeName: string) => ` in body must be of type ${typeName}: `,
  typeFail: (name: string, typeName: string) => `${name} in body must be of type ${typeName}`,
  tooLong: (name: string, max: number) => `${name} in body should be at most ${max} chars long`,
  tooShort: (name: string, min: number) => `${name} in body should be at least ${min} chars long`,
  pattern: (name: string, pattern: string) => `${name} in body should match '${pattern}'`,
  multipleOf: (name: string, f: string) => `${name} in body should be a multiple of ${f}`,
  maxInc: (name: string, m: string) => `${name} in body should be less than or equal to ${m}`,
  maxExc: (name: string, m: string) => `${name} in body should be less than ${m}`,
  minInc: (name: string, m: string) => `${name} in body should be greater than or equal to ${m}`,
  minExc: (name: string, m: string) => `${name} in body should be greater than ${m}`,
  unique: (name: string) => `${name} in body shouldn't contain duplicates`,
  maxItems: (name: string, n: number) => `${name} in body should have at most ${n} items`,
  minItems: (name: string, n: number) => `${name} in body should have at least ${n} items`,
  tooFewProperties: (name: string, n: number) => `${name} in body should have at least ${n} properties`,
  tooManyProperties: (name: string, n: number) => `${name} in body should have at most ${n} properties`,
  unallowedProperty: (name: string, key: string) => `${name}.${key} in body is a forbidden property`,
  enum: (name: string, values: readonly unknown[]) => `${name} in body should be one of ${enumTexts(values).slice}`,
  required: (name: string) => `${name} in body is required`,
  multipleOfMustBePositive: (name: string, f: string) => `factor MultipleOf declared for ${name} must be positive: ${f}`,
  anyOf: (name: string) => `${goQ(name)} must validate at least one schema (anyOf)`,
  oneOf: (name: string, extra: string) => `${goQ(name)} must validate one and only one schema (oneOf). ${extra}`,
  allOf: (name: string, extra: string) => `${goQ(name)} must validate all the schemas (allOf)${extra}`,
  not: (name: string) => `${goQ(name)} must not validate the schema (not)`,
  /** The int64/int32/float range checks' errors.New text ('Checked value must be of type ...'). */
  range: (prefix: string, typeName: string, format: string, path: string) =>
    format !== ''
      ? `${prefix} value must be of type ${typeName} with format ${format} in ${path}`
      : `${prefix} value must be of type ${typeName} (default format) in ${path}`,
};

// The imported functions are bound once: under the CommonJS interop the project runs with (tsx),
// every use of an imported name is a getter call, which shows in the error pass's profile.
const goQ = goQuote;
const invalidFE = invalid;
const requiredFE = required;
const typeInvalidFE = typeInvalid;
const tooLongFE = tooLongMaxLength;
const tooManyFE = tooMany;
const marshal = goJSONMarshal;

/** Go's %v of a []interface{} of JSON values (the EnumFail message). */
export function goSliceV(values: readonly unknown[]): string {
  return '[' + values.map((v) => (typeof v === 'string' ? v : marshal(v))).join(' ') + ']';
}

interface EnumTexts {
  /** goSliceV(values) */
  slice: string;
  /** The NotSupported detail listing the values. */
  detail: string;
}

// An enum is reported with the same texts every time: they are computed once per enum list (the
// validator passes the schema's own array, so the key lives as long as the compiled schema).
const enumTextCache = new WeakMap<readonly unknown[], EnumTexts>();

// The last enum looked up: an Enum error asks twice in a row (its message, then its field error).
let lastValues: readonly unknown[] | undefined;
let lastTexts: EnumTexts | undefined;

function enumTexts(values: readonly unknown[]): EnumTexts {
  if (values === lastValues) return lastTexts!;
  let t = enumTextCache.get(values);
  if (t === undefined) {
    const strings = values.map((v) => (typeof v === 'string' ? v : goJSONMarshal(v)));
    t = { slice: '[' + strings.join(' ') + ']', detail: supportedValuesDetail(strings) };
    enumTextCache.set(values, t);
  }
  lastValues = values;
  lastTexts = t;
  return t;
}

/** The field.NotSupported detail of an Enum error on values. */
export function enumDetail(values: readonly unknown[]): string {
  return enumTexts(values).detail;
}

/**
 * kubeOpenAPIResultToFieldErrors: `base` is the rendered field path the validator was called with
 * ('' for none, as the custom-resource strategy calls it).
 */
export function toFieldError(base: string, e: OpenAPIError): FieldError {
  if (e.code === 'Composite') return invalidFE(base, '', e.message);
  let path = base;
  if (e.field !== undefined && e.field !== '') {
    path = base === '' ? e.field : `${base}.${e.field}`;
  } else if (e.name.length > 0 && e.name !== '.') {
    const n = e.name.startsWith('.') ? e.name.slice(1) : e.name;
    path = base === '' ? n : `${base}.${n}`;
  }
  const value = e.value === null || e.value === undefined ? '' : e.value;
  switch (e.code) {
    case 'Required':
      return requiredFE(path, '');
    case 'Enum':
      // field.NotSupported with the enum's values, their detail text computed once per enum.
      return { type: 'FieldValueNotSupported', field: path, badValue: e.value ?? null, detail: e.detail ?? (e.values === undefined ? '' : enumTexts(e.values).detail) };
    case 'TooLong':
      return tooLongFE(path, '', e.valid ?? -1);
    case 'MaxItems':
    case 'TooManyProperties':
      return tooManyFE(path, typeof e.value === 'number' ? e.value : -1, e.valid ?? -1);
    case 'InvalidType':
      return typeInvalidFE(path, value, e.message);
    default:
      return invalidFE(path, value, e.message);
  }
}
