/**
 * Field errors: the catalogue of validation errors and their rendering, exactly as
 * k8s.io/apimachinery/pkg/util/validation/field prints them
 * (`spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10`).
 */
import { Path } from './path.ts';
import { formatGoValue, goQuote } from './govalue.ts';

export type ErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueTooFew'
  | 'FieldValueTooShort'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

/** Human text of each error type (ErrorType.String()). */
export const errorTypeText: Record<ErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueTooFew: 'Too few',
  FieldValueTooShort: 'Too short',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

/** Marks an error whose bad value is not printed (field.OmitValueType). */
export const omitValue: unique symbol = Symbol('omitValue');

export interface FieldError {
  type: ErrorType;
  /** The rendered path, e.g. `spec.ports[0].name`; '' renders as `<nil>`. */
  field: string;
  /** The offending value: JSON data, or a Go-typed value from govalue.ts, or omitValue. */
  badValue: unknown;
  detail: string;
  /** Optional machine-readable origin of the error (Kubernetes' declarative validation tag). */
  origin?: string;
}

function pathString(p: Path | string): string {
  return typeof p === 'string' ? p : p.toString();
}

/**
 * ErrorBody(): the part after `field: `. Required, Forbidden, TooLong, TooShort and InternalError
 * never print the value; the others print it as govalue.ts renders it, unless it is omitValue.
 */
export function errorBody(e: FieldError): string {
  let s: string;
  switch (e.type) {
    case 'FieldValueRequired':
    case 'FieldValueForbidden':
    case 'FieldValueTooLong':
    case 'FieldValueTooShort':
    case 'InternalError':
      s = errorTypeText[e.type];
      break;
    default:
      if (e.badValue === omitValue) s = errorTypeText[e.type];
      else s = `${errorTypeText[e.type]}: ${formatGoValue(e.badValue)}`;
  }
  if (e.detail.length > 0) s += `: ${e.detail}`;
  return s;
}

/** Error(): `field: body`; an empty field renders as `<nil>` as Go prints a nil *Path. */
export function errorString(e: FieldError): string {
  return `${e.field === '' ? '<nil>' : e.field}: ${errorBody(e)}`;
}

export function invalid(path: Path | string, value: unknown, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field: pathString(path), badValue: value, detail };
}

export function typeInvalid(path: Path | string, value: unknown, detail: string): FieldError {
  return { type: 'FieldValueTypeInvalid', field: pathString(path), badValue: value, detail };
}

export function required(path: Path | string, detail = ''): FieldError {
  return { type: 'FieldValueRequired', field: pathString(path), badValue: '', detail };
}

export function forbidden(path: Path | string, detail: string): FieldError {
  return { type: 'FieldValueForbidden', field: pathString(path), badValue: '', detail };
}

export function notFound(path: Path | string, value: unknown): FieldError {
  return { type: 'FieldValueNotFound', field: pathString(path), badValue: value, detail: '' };
}

export function duplicate(path: Path | string, value: unknown): FieldError {
  return { type: 'FieldValueDuplicate', field: pathString(path), badValue: value, detail: '' };
}

export function internalError(path: Path | string, err: Error | string): FieldError {
  return {
    type: 'InternalError',
    field: pathString(path),
    badValue: null,
    detail: typeof err === 'string' ? err : err.message,
  };
}

/**
 * NotSupported: detail lists the valid values, each quoted as strconv.Quote does, as
 * `supported values: "a", "b"`; no detail when the list is empty.
 */
export function notSupported(path: Path | string, value: unknown, validValues: readonly string[]): FieldError {
  return { type: 'FieldValueNotSupported', field: pathString(path), badValue: value, detail: supportedValuesDetail(validValues) };
}

/**
 * NotSupported's detail for a list of valid values (`supported values: "a", "b"`, '' for none):
 * callers that report the same list many times compute it once.
 */
export function supportedValuesDetail(validValues: readonly string[]): string {
  if (validValues.length === 0) return '';
  return 'supported values: ' + validValues.map((v) => goQuote(String(v))).join(', ');
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * TooLong: `Too long: may not be more than N bytes` (`1 byte`; maxLength < 0: `value is too
 * long`). The value is never printed; the argument is kept for the upstream signature.
 */
export function tooLong(path: Path | string, _value: unknown, maxLength: number): FieldError {
  const detail = maxLength >= 0 ? `may not be more than ${plural(maxLength, 'byte', 'bytes')}` : 'value is too long';
  return { type: 'FieldValueTooLong', field: pathString(path), badValue: '<value omitted>', detail };
}

/** TooLongMaxLength: deprecated upstream alias of TooLong. */
export function tooLongMaxLength(path: Path | string, value: unknown, maxLength: number): FieldError {
  return tooLong(path, value, maxLength);
}

/** TooLongCharacters: as TooLong, counted in characters (`may not be more than N characters`). */
export function tooLongCharacters(path: Path | string, _value: string, maxLength: number): FieldError {
  const detail =
    maxLength >= 0 ? `may not be more than ${plural(maxLength, 'character', 'characters')}` : 'value is too long';
  return { type: 'FieldValueTooLong', field: pathString(path), badValue: '<value omitted>', detail };
}

/** TooShort: `Too short: must be at least N characters` (the value is not printed). */
export function tooShort(path: Path | string, value: string, minLength: number): FieldError {
  const detail = minLength >= 0 ? `must be at least ${plural(minLength, 'character', 'characters')}` : 'value is too short';
  return { type: 'FieldValueTooShort', field: pathString(path), badValue: value, detail };
}

/** TooMany: `Too many: 3: must have at most 2 items` (actual < 0: value omitted). */
export function tooMany(path: Path | string, actualQuantity: number, maxQuantity: number): FieldError {
  const detail = maxQuantity >= 0 ? `must have at most ${plural(maxQuantity, 'item', 'items')}` : 'has too many items';
  const badValue = actualQuantity >= 0 ? actualQuantity : omitValue;
  return { type: 'FieldValueTooMany', field: pathString(path), badValue, detail };
}

/** TooFew: `Too few: 1: must have at least 2 items`. */
export function tooFew(path: Path | string, actualQuantity: number, minQuantity: number): FieldError {
  const detail = minQuantity >= 0 ? `must have at least ${plural(minQuantity, 'item', 'items')}` : 'has too few items';
  return { type: 'FieldValueTooFew', field: pathString(path), badValue: actualQuantity, detail };
}

/** ErrorList.ToAggregate().Error(): one error as is, several as `[e1, e2]`, duplicates dropped. */
export function aggregateString(errs: readonly FieldError[]): string {
  const seen = new Set<string>();
  const msgs: string[] = [];
  for (const e of errs) {
    const s = errorString(e);
    if (!seen.has(s)) {
      seen.add(s);
      msgs.push(s);
    }
  }
  if (msgs.length === 1) return msgs[0]!;
  return `[${msgs.join(', ')}]`;
}
