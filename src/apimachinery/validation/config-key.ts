/**
 * The key rule of ConfigMap and Secret data (k8s.io/apimachinery/pkg/util/validation
 * IsConfigMapKey): what may name a file projected into a volume, so no `.`, `..` or
 * `..`-prefixed names that would walk out of the mount.
 */
import { DNS1123SubdomainMaxLength, maxLenError, regexError } from './names.ts';

const configMapKeyFmt = '[-._a-zA-Z0-9]+';
const configMapKeyErrMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
const configMapKeyRegexp = new RegExp(`^${configMapKeyFmt}$`);

/** IsConfigMapKey: upstream's messages for a bad key, [] for a good one. */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (Buffer.byteLength(value, 'utf8') > DNS1123SubdomainMaxLength) errs.push(maxLenError(DNS1123SubdomainMaxLength));
  if (!configMapKeyRegexp.test(value)) errs.push(regexError(configMapKeyErrMsg, configMapKeyFmt, 'key.name', 'KEY_NAME', 'key-name'));
  if (value === '.') errs.push("must not be '.'");
  else if (value === '..') errs.push("must not be '..'");
  else if (value.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}
