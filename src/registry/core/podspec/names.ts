/**
 * The name checks pod specs apply to their fields, as field errors at the field
 * (ValidateDNS1123Label; DNS-subdomain names of service accounts, nodes and priority classes).
 */
import { Path, invalid, isDNS1123Label, nameIsDNSSubdomain, type FieldError } from '../../../apimachinery/index.ts';

export const DNS1123SubdomainMaxLength = 253;

/** ValidateDNS1123Label: one Invalid per message of IsDNS1123Label. */
export function validateDNS1123Label(value: string, fldPath: Path): FieldError[] {
  return isDNS1123Label(value).map((m) => invalid(fldPath, value, m));
}

/** A name checked as a DNS subdomain (ValidateServiceAccountName, ValidateNodeName, ...). */
export function validateSubdomainName(value: string, fldPath: Path): FieldError[] {
  return nameIsDNSSubdomain(value, false).map((m) => invalid(fldPath, value, m));
}
