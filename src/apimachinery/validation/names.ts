/**
 * Name and format checks of k8s.io/apimachinery/pkg/util/validation and
 * pkg/api/validate/content (Kubernetes 1.35): DNS labels and subdomains, qualified names (label
 * keys), label values, domain-prefixed paths, path-segment names, ports. Each check returns the
 * upstream messages (which embed the regexes), an empty list when the value is valid. Lengths
 * are counted in UTF-8 bytes, as Go's len() counts them.
 */
import { Path } from '../field/path.ts';
import { invalid, required, type FieldError } from '../field/errors.ts';

function byteLen(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** validation.MaxLenError: `must be no more than N characters`. */
export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** content.MaxLenError (label keys and values): `must be no more than N bytes`. */
function contentMaxLenError(length: number): string {
  return `must be no more than ${length} bytes`;
}

/** validation.EmptyError */
export function emptyError(): string {
  return 'must be non-empty';
}

/** validation.RegexError: the message, examples, and the regex used. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let s = msg + ' (e.g. ';
  examples.forEach((e, i) => {
    if (i > 0) s += ' or ';
    s += `'${e}', `;
  });
  return s + `regex used for validation is '${fmt}')`;
}

/** validation.InclusiveRangeError */
export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123LabelErrMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
export const DNS1123LabelMaxLength = 63;
const dns1123LabelRegexp = new RegExp(`^${dns1123LabelFmt}$`);

const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123SubdomainErrorMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
export const DNS1123SubdomainMaxLength = 253;
const dns1123SubdomainRegexp = new RegExp(`^${dns1123SubdomainFmt}$`);

const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1035LabelErrMsg =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
export const DNS1035LabelMaxLength = 63;
const dns1035LabelRegexp = new RegExp(`^${dns1035LabelFmt}$`);

/** IsDNS1123Label: a lowercase RFC 1123 label (namespace names, for instance). */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > DNS1123LabelMaxLength) errs.push(maxLenError(DNS1123LabelMaxLength));
  if (!dns1123LabelRegexp.test(value)) {
    if (dns1123SubdomainRegexp.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(dns1123LabelErrMsg, dns1123LabelFmt, 'my-name', '123-abc'));
  }
  return errs;
}

/** IsDNS1123Subdomain: a lowercase RFC 1123 subdomain (most object names). */
export function isDNS1123Subdomain(value: string): string[] {
  return dns1123Subdomain(value, maxLenError);
}

function dns1123Subdomain(value: string, lenErr: (n: number) => string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > DNS1123SubdomainMaxLength) errs.push(lenErr(DNS1123SubdomainMaxLength));
  if (!dns1123SubdomainRegexp.test(value)) {
    errs.push(regexError(dns1123SubdomainErrorMsg, dns1123SubdomainFmt, 'example.com'));
  }
  return errs;
}

/** IsDNS1035Label: a DNS-1035 label (service names, CRD version names). */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > DNS1035LabelMaxLength) errs.push(maxLenError(DNS1035LabelMaxLength));
  if (!dns1035LabelRegexp.test(value)) {
    errs.push(regexError(dns1035LabelErrMsg, dns1035LabelFmt, 'my-name', 'abc-123'));
  }
  return errs;
}

const wildcardDNS1123SubdomainFmt = `\\*\\.${dns1123SubdomainFmt}`;
const wildcardDNS1123SubdomainErrMsg =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";
const wildcardDNS1123SubdomainRegexp = new RegExp(`^${wildcardDNS1123SubdomainFmt}$`);

/** IsWildcardDNS1123Subdomain: `*.example.com`. */
export function isWildcardDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > DNS1123SubdomainMaxLength) errs.push(maxLenError(DNS1123SubdomainMaxLength));
  if (!wildcardDNS1123SubdomainRegexp.test(value)) {
    errs.push(regexError(wildcardDNS1123SubdomainErrMsg, wildcardDNS1123SubdomainFmt, '*.example.com'));
  }
  return errs;
}

const labelKeyCharFmt = '[A-Za-z0-9]';
const labelKeyExtCharFmt = '[-A-Za-z0-9_.]';
const labelKeyFmt = `(${labelKeyCharFmt}${labelKeyExtCharFmt}*)?${labelKeyCharFmt}`;
const labelKeyErrMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelKeyMaxLength = 63;
const labelKeyRegexp = new RegExp(`^${labelKeyFmt}$`);

/**
 * IsQualifiedName (content.IsLabelKey): `[prefix/]name`, the prefix a DNS subdomain, the name at
 * most 63 bytes of alphanumerics, '-', '_' and '.'. Used for label keys, annotation keys (lower-cased
 * first) and finalizers.
 */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push('prefix part ' + emptyError());
    else for (const m of dns1123Subdomain(prefix, contentMaxLenError)) errs.push('prefix part ' + m);
  } else {
    return [
      'a valid label key ' +
        regexError(labelKeyErrMsg, labelKeyFmt, 'MyName', 'my.name', '123-abc') +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errs.push('name part ' + emptyError());
  else if (byteLen(name) > labelKeyMaxLength) errs.push('name part ' + contentMaxLenError(labelKeyMaxLength));
  if (!labelKeyRegexp.test(name)) {
    errs.push('name part ' + regexError(labelKeyErrMsg, labelKeyFmt, 'MyName', 'my.name', '123-abc'));
  }
  return errs;
}

const labelValueFmt = `(${labelKeyFmt})?`;
const labelValueErrMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
export const LabelValueMaxLength = 63;
const labelValueRegexp = new RegExp(`^${labelValueFmt}$`);

/** IsValidLabelValue (content.IsLabelValue). */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > LabelValueMaxLength) errs.push(contentMaxLenError(LabelValueMaxLength));
  if (!labelValueRegexp.test(value)) {
    errs.push(regexError(labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345'));
  }
  return errs;
}

const httpPathFmt = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const httpPathRegexp = new RegExp(`^${httpPathFmt}$`);

/** IsDomainPrefixedPath: `acme.io/foo`, as field errors at fldPath. */
export function isDomainPrefixedPath(fldPath: Path, dpPath: string): FieldError[] {
  if (dpPath.length === 0) return [required(fldPath, '')];
  const i = dpPath.indexOf('/');
  const host = i < 0 ? dpPath : dpPath.slice(0, i);
  const path = i < 0 ? '' : dpPath.slice(i + 1);
  if (i < 0 || host.length === 0 || path.length === 0) {
    return [invalid(fldPath, dpPath, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  }
  const errs = isDNS1123Subdomain(host).map((m) => invalid(fldPath, host, m));
  if (!httpPathRegexp.test(path)) {
    errs.push(invalid(fldPath, path, regexError('Invalid path', httpPathFmt)));
  }
  return errs;
}

/** IsDomainPrefixedKey: a qualified name that must carry a prefix. */
export function isDomainPrefixedKey(fldPath: Path, key: string): FieldError[] {
  if (key.length === 0) return [required(fldPath, '')];
  const errs = isQualifiedName(key).map((m) => invalid(fldPath, key, m));
  if (errs.length > 0) return errs;
  if (key.split('/').length !== 2) {
    return [invalid(fldPath, key, 'must be a domain-prefixed key (such as "acme.io/foo")')];
  }
  return [];
}

/** IsFullyQualifiedName: a DNS subdomain of at least three segments (CRD groups, for instance). */
export function isFullyQualifiedName(fldPath: Path, name: string): FieldError[] {
  if (name.length === 0) return [required(fldPath, '')];
  const errs = isDNS1123Subdomain(name);
  if (errs.length > 0) return [invalid(fldPath, name, errs.join(','))];
  if (name.split('.').length < 3) {
    return [invalid(fldPath, name, 'should be a domain with at least three segments separated by dots')];
  }
  return [];
}

const cIdentifierFmt = '[A-Za-z_][A-Za-z0-9_]*';
const cIdentifierRegexp = new RegExp(`^${cIdentifierFmt}$`);

/** IsCIdentifier */
export function isCIdentifier(value: string): string[] {
  if (cIdentifierRegexp.test(value)) return [];
  return [
    regexError(
      "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'",
      cIdentifierFmt,
      'my_name',
      'MY_NAME',
      'MyName',
    ),
  ];
}

/** IsValidPortNum: 1..65535. */
export function isValidPortNum(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

/** IsInRange */
export function isInRange(value: number, min: number, max: number): string[] {
  return value >= min && value <= max ? [] : [inclusiveRangeError(min, max)];
}

/** IsValidPortName: an IANA_SVC_NAME. */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (byteLen(port) > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** path.IsValidPathSegmentName: a name that can be one segment of a URL path. */
export function isValidPathSegmentName(name: string): string[] {
  for (const illegal of ['.', '..']) {
    if (name === illegal) return [`may not be '${illegal}'`];
  }
  return isValidPathSegmentPrefix(name);
}

/** path.IsValidPathSegmentPrefix: a generateName prefix of such a name. */
export function isValidPathSegmentPrefix(name: string): string[] {
  const errs: string[] = [];
  for (const illegal of ['/', '%']) {
    if (name.includes(illegal)) errs.push(`may not contain '${illegal}'`);
  }
  return errs;
}

/** A ValidateNameFunc: checks a name, or with prefix=true a generateName prefix. */
export type ValidateNameFunc = (name: string, prefix: boolean) => string[];

/** path.ValidatePathSegmentName: the name check custom resources use. */
export const validatePathSegmentName: ValidateNameFunc = (name, prefix) =>
  prefix ? isValidPathSegmentPrefix(name) : isValidPathSegmentName(name);

/**
 * maskTrailingDash: a generateName prefix may end in '-'; upstream replaces the last two
 * characters with 'a' (sic) before checking.
 */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? name.slice(0, -2) + 'a' : name;
}

/** NameIsDNSSubdomain */
export const nameIsDNSSubdomain: ValidateNameFunc = (name, prefix) =>
  isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);

/** NameIsDNSLabel (also ValidateNamespaceName) */
export const nameIsDNSLabel: ValidateNameFunc = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);

/** NameIsDNS1035Label */
export const nameIsDNS1035Label: ValidateNameFunc = (name, prefix) =>
  isDNS1035Label(prefix ? maskTrailingDash(name) : name);

/** ValidateNamespaceName */
export const validateNamespaceName: ValidateNameFunc = nameIsDNSLabel;
