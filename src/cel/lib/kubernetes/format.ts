/**
 * Kubernetes' format library (k8s.io/apiserver/pkg/cel/library/format.go): `format.named(name)`
 * (an optional `kubernetes.NamedFormat`), one `format.<name>()` constant per named format, and
 * `<format>.validate(string) -> optional(list(string))`, none when the string is valid, otherwise
 * Kubernetes' validation messages. Formats are equal when their names are.
 */
import { StringType, listOf, optionalOf, structType } from '../../check/types.ts';
import { actualSize } from '../../eval/planner.ts';
import { Optional, errNoOverload, type Val } from '../../eval/values.ts';
import type { FunctionDecl, Library } from '../decls.ts';
import { fn, global, member } from '../define.ts';
import { REGEX_STRING_LENGTH_COST_FACTOR, STRING_TRAVERSAL_COST_FACTOR, nominalCost } from './costs.ts';
import { parseRequestURI } from './net-url.ts';
import { LibraryValue } from './object.ts';
import {
  isQualifiedName,
  isValidLabelValue,
  nameIsDNS1035Label,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
} from './name-validation.ts';

export const FORMAT_TYPE_NAME = 'kubernetes.NamedFormat';
/** The checker's type of named formats. */
export const FormatType = structType(FORMAT_TYPE_NAME);

/** A named format: its validation and the regex size upstream's cost estimate assumes. */
export interface NamedFormat {
  name: string;
  validate: (s: string) => string[];
  maxRegexSize: number;
}

/** A CEL `kubernetes.NamedFormat` value. */
export class FormatValue extends LibraryValue {
  constructor(readonly format: NamedFormat) {
    super(FORMAT_TYPE_NAME, format.name);
  }
}

// kube-openapi strfmt patterns (their lengths are upstream's regex size estimates).
const UUID_PATTERN = '(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$';
const DATE_TIME_PATTERN = '^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$';
const uuidRe = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const base64Re = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
const timeRe = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;
const DAYS_IN = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** time.Parse("2006-01-02", s) succeeds. */
function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return d <= (mo === 2 && leap ? 29 : DAYS_IN[mo - 1]!);
}

/** strfmt.IsDateTime: date 't' hh:mm:ss[.frac](z|±hh:mm), case-insensitive. */
function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0]!)) return false;
  const m = timeRe.exec(parts[1]!);
  return !!m && m[1]! <= '23' && m[2]! <= '59' && m[3]! <= '59';
}

const check = (ok: (s: string) => boolean, msg: string) => (s: string) => (ok(s) ? [] : [msg]);

/** The named formats, by the name `format.named` takes. */
export const CONSTANT_FORMATS: Record<string, NamedFormat> = {
  dns1123Label: { name: 'DNS1123Label', validate: (s) => nameIsDNSLabel(s, false), maxRegexSize: 30 },
  dns1123Subdomain: { name: 'DNS1123Subdomain', validate: (s) => nameIsDNSSubdomain(s, false), maxRegexSize: 60 },
  dns1035Label: { name: 'DNS1035Label', validate: (s) => nameIsDNS1035Label(s, false), maxRegexSize: 30 },
  qualifiedName: { name: 'QualifiedName', validate: isQualifiedName, maxRegexSize: 60 },
  dns1123LabelPrefix: { name: 'DNS1123LabelPrefix', validate: (s) => nameIsDNSLabel(s, true), maxRegexSize: 30 },
  dns1123SubdomainPrefix: { name: 'DNS1123SubdomainPrefix', validate: (s) => nameIsDNSSubdomain(s, true), maxRegexSize: 60 },
  dns1035LabelPrefix: { name: 'DNS1035LabelPrefix', validate: (s) => nameIsDNS1035Label(s, true), maxRegexSize: 30 },
  labelValue: { name: 'LabelValue', validate: isValidLabelValue, maxRegexSize: 40 },
  uri: {
    name: 'URI',
    validate: (s) => {
      const r = parseRequestURI(s);
      return typeof r === 'string' ? [r] : [];
    },
    // govalidator's URL regex length, as upstream estimates.
    maxRegexSize: 1103,
  },
  uuid: { name: 'uuid', validate: check((s) => uuidRe.test(s), 'does not match the UUID format'), maxRegexSize: UUID_PATTERN.length },
  byte: { name: 'byte', validate: check((s) => base64Re.test(s), 'invalid base64'), maxRegexSize: 84 },
  date: { name: 'date', validate: check(isDate, 'invalid date'), maxRegexSize: DATE_TIME_PATTERN.length },
  datetime: { name: 'datetime', validate: check(isDateTime, 'invalid datetime'), maxRegexSize: DATE_TIME_PATTERN.length },
};

const VALUES = new Map(Object.entries(CONSTANT_FORMATS).map(([k, f]) => [k, new FormatValue(f)]));

function validate(f: Val, s: string): Val {
  if (!(f instanceof FormatValue)) return errNoOverload();
  const res = f.format.validate(s);
  return res.length === 0 ? Optional.none : new Optional(res);
}

/** upstream's validate cost: (string traversal) × (regex size × 0.25). */
function validateCost(f: Val, s: Val): number {
  if (!(f instanceof FormatValue)) return 1;
  const strCost = Math.ceil((1 + actualSize(s)) * STRING_TRAVERSAL_COST_FACTOR);
  const regexCost = Math.ceil(f.format.maxRegexSize * REGEX_STRING_LENGTH_COST_FACTOR);
  return strCost * regexCost;
}

const constants: FunctionDecl[] = [...VALUES].map(([name, v]) => fn(`format.${name}`, global(`format.${name}`, [], FormatType, () => v)));

export const formatLibrary: Library = {
  name: 'kubernetes.format',
  functions: [
    fn('validate', member('format-validate', [FormatType, StringType], optionalOf(listOf(StringType)), validate, { cost: validateCost })),
    fn(
      'format.named',
      global('format-named', [StringType], optionalOf(FormatType), (n: string) => {
        const v = VALUES.get(n);
        return v ? new Optional(v) : Optional.none;
      }, { cost: nominalCost }),
    ),
    ...constants,
  ],
};
