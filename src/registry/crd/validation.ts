/**
 * Validation of CustomResourceDefinition objects, as kube-apiserver's apiextensions validation
 * (`pkg/apis/apiextensions/validation`) does it on the internal shape (see internal.ts): metadata
 * name `<plural>.<group>`, group, scope, names, versions (exactly one storage version, unique DNS-1035
 * names, deprecation warnings), top-level vs per-version fields, subresources, printer columns,
 * selectable fields, conversion webhooks, stored versions, the API-approval annotation of protected
 * groups, and update rules (immutable group/plural, scope/kind once established).
 *
 * The schema itself (`spec.validation` / `spec.versions[*].schema`) is checked by the schema layer;
 * this module passes it the options kube-apiserver derives from the old object (ratcheting).
 */
import { Path } from '../../apimachinery/index.ts';
import type { JSONSchemaProps } from '../../schema/index.ts';
import { validateSchemaDepth } from '../../schema/index.ts';
import {
  type FieldError,
  duplicate,
  forbidden,
  invalid,
  notSupported,
  required,
  tooMany,
} from '../../apimachinery/index.ts';
import { isDNS1035Label, isDNS1123Subdomain, isValidPortNum, nameIsDNSSubdomain } from '../../apimachinery/index.ts';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../apimachinery/index.ts';
import {
  type CRDNames,
  type ColumnDefinition,
  type CustomResourceValidation,
  type InternalCRD,
  type InternalConversion,
  type InternalSpec,
  type InternalVersion,
  type SelectableField,
  type Subresources,
  isObject,
  semanticEqual,
} from './internal.ts';
import {
  type CRDSpecSchemas,
  type SchemaValidationOptions,
  collectExpressions,
  resolveFieldPath,
  schemaHasDefaults,
  schemaHasKubernetesExtensions,
  schemaOptionsForCreate,
  schemaOptionsForUpdate,
  validateSchema,
} from './schema-hooks.ts';

const printerColumnDatatypes = ['boolean', 'date', 'integer', 'number', 'string'];
const columnFormats = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];
const acceptedConversionReviewVersions = ['v1', 'v1beta1'];
export const MaxSelectableFields = 8;
export const KubeAPIApprovedAnnotation = 'api-approved.kubernetes.io';

interface Options extends SchemaValidationOptions {
  /** Rules and message expressions the old CRD already had (they compile with the stored-expressions env). */
  preexistingExpressions?: { rules: Set<string>; messageExpressions: Set<string> };
  /** The version's schema is unchanged: per-expression cost limits are not re-applied. */
  suppressPerExpressionCost?: boolean;
  requireRecognizedConversionReviewVersion: boolean;
  requireImmutableNames: boolean;
  requireOpenAPISchema: boolean;
  versionsWithUnchangedSchemas: Set<string>;
  allowInvalidCABundle: boolean;
  allowTooManySelectableFields: Record<string, boolean>;
}

/**
 * Schemas nested deeper than the schema walks can go (schema/crd/depth.ts), at their internal
 * paths. Checked before validateCRD and validateCRDUpdate, whose schema checks would overflow
 * the stack on them.
 */
export function schemaDepthErrors(crd: InternalCRD): FieldError[] {
  const spec = crd.spec ?? {};
  const errs = validateSchemaDepth(spec.validation?.openAPIV3Schema as JSONSchemaProps | undefined, Path.of('spec', 'validation', 'openAPIV3Schema'));
  (spec.versions ?? []).forEach((v, i) => {
    errs.push(...validateSchemaDepth(v.schema?.openAPIV3Schema as JSONSchemaProps | undefined, Path.of('spec', 'versions').index(i).child('schema', 'openAPIV3Schema')));
  });
  return errs;
}

/** ValidateCustomResourceDefinition: checks a CRD being created. */
export function validateCRD(crd: InternalCRD): FieldError[] {
  const spec = crd.spec ?? {};
  const names = spec.names ?? {};
  const opts: Options = {
    ...schemaOptionsForCreate(),
    requireRecognizedConversionReviewVersion: true,
    requireImmutableNames: false,
    requireOpenAPISchema: true,
    allowInvalidCABundle: true,
    versionsWithUnchangedSchemas: new Set(),
    allowTooManySelectableFields: {},
  };
  const nameFn = (name: string, prefix: boolean): string[] => {
    const errs = nameIsDNSSubdomain(name, prefix);
    if (name !== `${names.plural ?? ''}.${spec.group ?? ''}`) errs.push('must be spec.names.plural+"."+spec.group');
    return errs;
  };
  const errs: FieldError[] = [];
  errs.push(...validateObjectMeta(crd.metadata ?? {}, false, nameFn, Path.of('metadata')));
  errs.push(...validateSpec(spec, opts, Path.of('spec')));
  errs.push(...validateStatus(crd, Path.of('status')));
  errs.push(...validateStoredVersions(crd.status?.storedVersions ?? [], spec.versions ?? [], Path.of('status', 'storedVersions')));
  errs.push(...validateAPIApproval(crd, undefined));
  errs.push(...validatePreserveUnknownFields(crd, undefined));
  return errs;
}

/** ValidateCustomResourceDefinitionUpdate: checks an update of `old` to `crd`. */
export function validateCRDUpdate(crd: InternalCRD, old: InternalCRD): FieldError[] {
  const oldSpec = old.spec ?? {};
  const opts: Options = {
    ...schemaOptionsForUpdate(oldSpec as CRDSpecSchemas),
    requireRecognizedConversionReviewVersion:
      !oldSpec.conversion || hasValidConversionReviewVersionOrEmpty(oldSpec.conversion.conversionReviewVersions ?? []),
    requireImmutableNames: isConditionTrue(old, 'Established'),
    requireOpenAPISchema: allVersionsSpecifyOpenAPISchema(oldSpec),
    preexistingExpressions: findPreexistingExpressions(oldSpec),
    versionsWithUnchangedSchemas: findVersionsWithUnchangedSchemas(crd, old),
    allowInvalidCABundle: allowInvalidCABundle(old),
    allowTooManySelectableFields: findTooManySelectableFieldsAllowed(crd, old),
  };
  const spec = crd.spec ?? {};
  const errs: FieldError[] = [];
  errs.push(...validateObjectMetaUpdate(crd.metadata ?? {}, old.metadata ?? {}, Path.of('metadata')));
  errs.push(...validateSpec(spec, opts, Path.of('spec')));
  if (opts.requireImmutableNames) {
    errs.push(...immutable(spec.scope, oldSpec.scope, Path.of('spec', 'scope')));
    errs.push(...immutable(spec.names?.kind, oldSpec.names?.kind, Path.of('spec', 'names', 'kind')));
  }
  errs.push(...immutable(spec.group, oldSpec.group, Path.of('spec', 'group')));
  errs.push(...immutable(spec.names?.plural, oldSpec.names?.plural, Path.of('spec', 'names', 'plural')));
  errs.push(...validateStatus(crd, Path.of('status')));
  errs.push(...validateStoredVersions(crd.status?.storedVersions ?? [], spec.versions ?? [], Path.of('status', 'storedVersions')));
  errs.push(...validateAPIApproval(crd, old));
  errs.push(...validatePreserveUnknownFields(crd, old));
  return errs;
}

/** ValidateUpdateCustomResourceDefinitionStatus: a write to the status subresource. */
export function validateCRDStatusUpdate(crd: InternalCRD, old: InternalCRD): FieldError[] {
  return [
    ...validateObjectMetaUpdate(crd.metadata ?? {}, old.metadata ?? {}, Path.of('metadata')),
    ...validateStatus(crd, Path.of('status')),
  ];
}

function immutable(newVal: unknown, oldVal: unknown, path: Path): FieldError[] {
  if (semanticEqual(newVal, oldVal)) return [];
  return [invalid(path, newVal ?? '', 'field is immutable')];
}

function isConditionTrue(crd: InternalCRD, type: string): boolean {
  return (crd.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

function validateSpec(spec: InternalSpec, optsIn: Options, fld: Path): FieldError[] {
  const opts: Options = { ...optsIn };
  const errs: FieldError[] = [];
  const group = spec.group ?? '';
  if (group.length === 0) {
    errs.push(required(fld.child('group'), ''));
  } else {
    const e = isDNS1123Subdomain(group);
    if (e.length > 0) errs.push(invalid(fld.child('group'), group, e.join(',')));
    else if (group.split('.').length < 2) errs.push(invalid(fld.child('group'), group, 'should be a domain with at least one dot'));
  }
  errs.push(...validateEnumStrings(fld.child('scope'), spec.scope ?? '', ['Cluster', 'Namespaced'], true));

  const preserve = spec.preserveUnknownFields;
  if (preserve === undefined || preserve === null || preserve === false) opts.requireStructuralSchema = true;

  const versions = spec.versions ?? [];
  const hasGlobalSchema = !!(spec.validation && spec.validation.openAPIV3Schema);
  if (opts.requireOpenAPISchema) {
    if (!hasGlobalSchema) {
      versions.forEach((v, i) => {
        if (!v.schema || !v.schema.openAPIV3Schema) {
          errs.push(required(fld.child('versions').index(i).child('schema').child('openAPIV3Schema'), ''));
        }
      });
    }
  } else if (preserve === undefined || preserve === null || preserve === false) {
    if (!hasGlobalSchema) {
      versions.forEach((v, i) => {
        if (v.served && (!v.schema || !v.schema.openAPIV3Schema)) {
          errs.push(
            required(fld.child('versions').index(i).child('schema', 'openAPIV3Schema'), 'because otherwise all fields are pruned'),
          );
        }
      });
    }
  }
  if (opts.allowDefaults && hasSchemaWith(spec, schemaHasDefaults)) {
    opts.requireStructuralSchema = true;
    if (preserve === undefined || preserve === null || preserve === true) {
      errs.push(invalid(fld.child('preserveUnknownFields'), true, 'must be false in order to use defaults in the schema'));
    }
  }
  if (hasSchemaWith(spec, schemaHasKubernetesExtensions)) opts.requireStructuralSchema = true;

  let storageCount = 0;
  const seen = new Set<string>();
  let uniqueNames = true;
  versions.forEach((version, i) => {
    if (version.storage) storageCount++;
    const name = version.name ?? '';
    if (seen.has(name)) uniqueNames = false;
    else seen.add(name);
    const e = isDNS1035Label(name);
    if (e.length > 0) errs.push(invalid(fld.child('versions').index(i).child('name'), name, e.join(',')));
    const sub = subresourcesForVersion(spec, name);
    errs.push(...validateVersion(version, fld.child('versions').index(i), !!(sub && sub.status), opts));
  });

  if (spec.validation && hasPerVersion(versions, (v) => v.schema)) {
    errs.push(forbidden(fld.child('validation'), 'top-level and per-version schemas are mutually exclusive'));
  }
  if (spec.subresources && hasPerVersion(versions, (v) => v.subresources)) {
    errs.push(forbidden(fld.child('subresources'), 'top-level and per-version subresources are mutually exclusive'));
  }
  if ((spec.additionalPrinterColumns ?? []).length > 0 && versions.some((v) => (v.additionalPrinterColumns ?? []).length > 0)) {
    errs.push(forbidden(fld.child('additionalPrinterColumns'), 'top-level and per-version additionalPrinterColumns are mutually exclusive'));
  }
  if (identicalPerVersion(versions, (v) => v.schema, (x) => x !== undefined && x !== null)) {
    errs.push(
      invalid(fld.child('versions'), versions, 'per-version schemas may not all be set to identical values (top-level validation should be used instead)'),
    );
  }
  if (identicalPerVersion(versions, (v) => v.subresources, (x) => x !== undefined && x !== null)) {
    errs.push(
      invalid(fld.child('versions'), versions, 'per-version subresources may not all be set to identical values (top-level subresources should be used instead)'),
    );
  }
  if (identicalPerVersion(versions, (v) => v.additionalPrinterColumns, (x) => Array.isArray(x) && x.length > 0)) {
    errs.push(
      invalid(
        fld.child('versions'),
        versions,
        'per-version additionalPrinterColumns may not all be set to identical values (top-level additionalPrinterColumns should be used instead)',
      ),
    );
  }
  if (!uniqueNames) errs.push(invalid(fld.child('versions'), versions, 'must contain unique version names'));
  if (storageCount !== 1) errs.push(invalid(fld.child('versions'), versions, 'must have exactly one version marked as storage version'));
  if (spec.version) {
    const e = isDNS1035Label(spec.version);
    if (e.length > 0) errs.push(invalid(fld.child('version'), spec.version, e.join(',')));
    if (versions.length >= 1 && versions[0]!.name !== spec.version) {
      errs.push(invalid(fld.child('version'), spec.version, 'must match the first version in spec.versions'));
    }
  }

  const names = spec.names ?? {};
  if (!names.plural) errs.push(required(fld.child('names', 'plural'), ''));
  if (!names.singular) errs.push(required(fld.child('names', 'singular'), ''));
  if (!names.kind) errs.push(required(fld.child('names', 'kind'), ''));
  if (!names.listKind) errs.push(required(fld.child('names', 'listKind'), ''));
  errs.push(...validateNames(names, fld.child('names')));

  const topOpts = suppressCost(opts, spec.version ?? '');
  errs.push(...validateSchema(spec.validation ?? undefined, hasAnyStatusEnabled(spec), topOpts, fld.child('validation')));
  errs.push(...validateSubresources(spec.subresources ?? undefined, fld.child('subresources')));
  (spec.additionalPrinterColumns ?? []).forEach((col, i) => {
    errs.push(...validateColumn(col, fld.child('additionalPrinterColumns').index(i)));
  });
  if ((spec.selectableFields ?? []).length > 0) {
    if (!spec.validation) {
      errs.push(invalid(fld.child('selectableFields'), '', 'may only be set when validations.schema is included'));
    } else {
      errs.push(...validateSelectableFields(spec.selectableFields!, spec.validation.openAPIV3Schema, fld.child('selectableFields'), opts, ''));
    }
  }
  const conv = spec.conversion;
  if (conv && conv.strategy !== 'None' && (preserve === undefined || preserve === null || preserve === true)) {
    errs.push(invalid(fld.child('conversion').child('strategy'), conv.strategy ?? '', 'must be None if spec.preserveUnknownFields is true'));
  }
  errs.push(...validateConversion(conv ?? undefined, opts.requireRecognizedConversionReviewVersion, fld.child('conversion'), opts));
  return errs;
}

function suppressCost(opts: Options, version: string): Options {
  return opts.versionsWithUnchangedSchemas.has(version) ? { ...opts, suppressPerExpressionCost: true } : opts;
}

function validateVersion(version: InternalVersion, fld: Path, statusEnabled: boolean, optsIn: Options): FieldError[] {
  const errs: FieldError[] = [];
  for (const msg of validateDeprecationWarning(!!version.deprecated, version.deprecationWarning)) {
    errs.push(invalid(fld.child('deprecationWarning'), version.deprecationWarning ?? null, msg));
  }
  const opts = suppressCost(optsIn, version.name ?? '');
  errs.push(...validateSchema(version.schema ?? undefined, statusEnabled, opts, fld.child('schema')));
  errs.push(...validateSubresources(version.subresources ?? undefined, fld.child('subresources')));
  (version.additionalPrinterColumns ?? []).forEach((col, i) => {
    errs.push(...validateColumn(col, fld.child('additionalPrinterColumns').index(i)));
  });
  if ((version.selectableFields ?? []).length > 0) {
    if (!version.schema || !version.schema.openAPIV3Schema) {
      errs.push(invalid(fld.child('selectableFields'), '', 'may only be set when `version.schema.openAPIV3Schema` is not included'));
    } else {
      errs.push(...validateSelectableFields(version.selectableFields!, version.schema.openAPIV3Schema, fld.child('selectableFields'), opts, version.name ?? ''));
    }
  }
  return errs;
}

export function validateDeprecationWarning(deprecated: boolean, warning: string | null | undefined): string[] {
  if (!deprecated && warning !== undefined && warning !== null) return ['can only be set for deprecated versions'];
  if (warning === undefined || warning === null) return [];
  const errs: string[] = [];
  const bytes = Buffer.byteLength(warning, 'utf8');
  if (bytes > 256) errs.push('must be <= 256 characters long');
  if (bytes === 0) errs.push('must not be an empty string');
  let byteIndex = 0;
  for (const ch of warning) {
    if (/\p{Cc}/u.test(ch)) {
      errs.push(`must only contain printable UTF-8 characters; non-printable character found at index ${byteIndex}`);
      break;
    }
    if (!/[\p{L}\p{M}\p{N}\p{P}\p{S} ]/u.test(ch)) {
      errs.push(`must only contain printable UTF-8 characters; non-printable character found at index ${byteIndex}`);
      break;
    }
    byteIndex += Buffer.byteLength(ch, 'utf8');
  }
  return errs;
}

function validateEnumStrings(fld: Path, value: string, accepted: string[], isRequired: boolean): FieldError[] {
  if (value === '') return isRequired ? [required(fld, '')] : [];
  if (accepted.includes(value)) return [];
  return [notSupported(fld, value, accepted)];
}

function validateNames(names: CRDNames, fld: Path): FieldError[] {
  const errs: FieldError[] = [];
  const check = (value: string | undefined, path: Path, lower: boolean, prefix = '') => {
    if (!value) return;
    const e = isDNS1035Label(lower ? value.toLowerCase() : value);
    if (e.length > 0) errs.push(invalid(path, value, prefix + e.join(',')));
  };
  check(names.plural, fld.child('plural'), false);
  check(names.singular, fld.child('singular'), false);
  check(names.kind, fld.child('kind'), true, 'may have mixed case, but should otherwise match: ');
  check(names.listKind, fld.child('listKind'), true, 'may have mixed case, but should otherwise match: ');
  (names.shortNames ?? []).forEach((s, i) => {
    const e = isDNS1035Label(s);
    if (e.length > 0) errs.push(invalid(fld.child('shortNames').index(i), s, e.join(',')));
  });
  if (names.kind && names.kind === names.listKind) {
    errs.push(invalid(fld.child('listKind'), names.listKind, 'kind and listKind may not be the same'));
  }
  (names.categories ?? []).forEach((c, i) => {
    const e = isDNS1035Label(c);
    if (e.length > 0) errs.push(invalid(fld.child('categories').index(i), c, e.join(',')));
  });
  return errs;
}

function validateStatus(crd: InternalCRD, fld: Path): FieldError[] {
  return validateNames(crd.status?.acceptedNames ?? {}, fld.child('acceptedNames'));
}

export function validateStoredVersions(stored: string[], versions: InternalVersion[], fld: Path): FieldError[] {
  if (stored.length === 0) return [invalid(fld, stored, 'must have at least one stored version')];
  const errs: FieldError[] = [];
  const remaining = new Map<string, number>();
  stored.forEach((v, i) => remaining.set(v, i));
  for (const v of versions) {
    const ok = remaining.has(v.name ?? '');
    if (v.storage && !ok) errs.push(invalid(fld, stored, 'must have the storage version ' + (v.name ?? '')));
    if (ok) remaining.delete(v.name ?? '');
  }
  for (const [v, i] of remaining) {
    errs.push(
      invalid(
        fld.index(i),
        v,
        `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
      ),
    );
  }
  return errs;
}

function validateColumn(col: ColumnDefinition, fld: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (!col.name) errs.push(required(fld.child('name'), ''));
  const types = printerColumnDatatypes.join(',');
  if (!col.type) errs.push(required(fld.child('type'), `must be one of ${types}`));
  else if (!printerColumnDatatypes.includes(col.type)) errs.push(invalid(fld.child('type'), col.type, `must be one of ${types}`));
  if (col.format && !columnFormats.includes(col.format)) {
    errs.push(invalid(fld.child('format'), col.format, `must be one of ${columnFormats.join(',')}`));
  }
  if (!col.jsonPath) errs.push(required(fld.child('JSONPath'), ''));
  else errs.push(...validateSimpleJSONPath(col.jsonPath, fld.child('JSONPath')));
  return errs;
}

function validateSimpleJSONPath(s: string, fld: Path): FieldError[] {
  if (s.length === 0) return [invalid(fld, s, 'must not be empty')];
  if (s[0] !== '.') return [invalid(fld, s, 'must be a simple json path starting with .')];
  return [];
}

function validateSubresources(sub: Subresources | undefined, fld: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (!sub || !sub.scale) return errs;
  const scale = sub.scale;
  if (!scale.specReplicasPath) {
    errs.push(required(fld.child('scale.specReplicasPath'), ''));
  } else {
    const e = validateSimpleJSONPath(scale.specReplicasPath, fld.child('scale.specReplicasPath'));
    if (e.length > 0) errs.push(...e);
    else if (!scale.specReplicasPath.startsWith('.spec.')) {
      errs.push(invalid(fld.child('scale.specReplicasPath'), scale.specReplicasPath, 'should be a json path under .spec'));
    }
  }
  if (!scale.statusReplicasPath) {
    errs.push(required(fld.child('scale.statusReplicasPath'), ''));
  } else {
    const e = validateSimpleJSONPath(scale.statusReplicasPath, fld.child('scale.statusReplicasPath'));
    if (e.length > 0) errs.push(...e);
    else if (!scale.statusReplicasPath.startsWith('.status.')) {
      errs.push(invalid(fld.child('scale.statusReplicasPath'), scale.statusReplicasPath, 'should be a json path under .status'));
    }
  }
  const lsp = scale.labelSelectorPath;
  if (typeof lsp === 'string' && lsp.length > 0) {
    const e = validateSimpleJSONPath(lsp, fld.child('scale.labelSelectorPath'));
    if (e.length > 0) errs.push(...e);
    else if (!lsp.startsWith('.spec.') && !lsp.startsWith('.status.')) {
      errs.push(invalid(fld.child('scale.labelSelectorPath'), lsp, 'should be a json path under either .spec or .status'));
    }
  }
  return errs;
}

function validateSelectableFields(
  fields: SelectableField[],
  schema: unknown,
  fld: Path,
  opts: Options,
  version: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    const p = fld.index(i);
    if (!f.jsonPath) {
      errs.push(required(p.child('jsonPath'), ''));
      return;
    }
    const found = resolveFieldPath(f.jsonPath, schema);
    if ('error' in found) {
      errs.push(invalid(p.child('jsonPath'), f.jsonPath, `is an invalid path: ${found.error}`));
      return;
    }
    if (found.root === 'metadata') errs.push(invalid(p.child('jsonPath'), f.jsonPath, 'must not point to fields in metadata'));
    if (!['string', 'boolean', 'integer'].includes(found.type ?? '')) {
      errs.push(
        invalid(
          p.child('jsonPath'),
          f.jsonPath,
          'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
        ),
      );
    }
    if (unique.has(found.path)) errs.push(duplicate(p.child('jsonPath'), f.jsonPath));
    else unique.add(found.path);
  });
  if (unique.size > MaxSelectableFields && !opts.allowTooManySelectableFields[version]) {
    errs.push(tooMany(fld, unique.size, MaxSelectableFields));
  }
  return errs;
}

function validateConversion(conv: InternalConversion | undefined, requireRecognized: boolean, fld: Path, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  if (!conv) return errs;
  errs.push(...validateEnumStrings(fld.child('strategy'), conv.strategy ?? '', ['None', 'Webhook'], true));
  if (conv.strategy === 'Webhook') {
    const cc = conv.webhookClientConfig;
    if (!cc) {
      errs.push(required(fld.child('webhookClientConfig'), 'required when strategy is set to Webhook'));
    } else {
      const hasURL = cc.url !== undefined && cc.url !== null;
      const hasService = cc.service !== undefined && cc.service !== null;
      if (hasURL === hasService) {
        errs.push(required(fld.child('webhookClientConfig'), 'exactly one of url or service is required'));
      } else if (hasURL) {
        errs.push(...validateWebhookURL(fld.child('webhookClientConfig').child('url'), cc.url!));
      } else {
        const s = cc.service!;
        errs.push(...validateWebhookService(fld.child('webhookClientConfig').child('service'), s.namespace ?? '', s.name ?? '', s.path, s.port ?? 0));
      }
      if (cc.caBundle && cc.caBundle.length > 0 && !opts.allowInvalidCABundle) {
        errs.push(...validateCABundle(fld.child('webhookClientConfig').child('caBundle'), cc.caBundle));
      }
    }
    errs.push(...validateConversionReviewVersions(conv.conversionReviewVersions ?? [], requireRecognized, fld.child('conversionReviewVersions')));
  } else {
    if (conv.webhookClientConfig) {
      errs.push(forbidden(fld.child('webhookClientConfig'), 'should not be set when strategy is not set to Webhook'));
    }
    if ((conv.conversionReviewVersions ?? []).length > 0) {
      errs.push(forbidden(fld.child('conversionReviewVersions'), 'should not be set when strategy is not set to Webhook'));
    }
  }
  return errs;
}

function validateConversionReviewVersions(versions: string[], requireRecognized: boolean, fld: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (versions.length < 1) return [required(fld, '')];
  const seen = new Set<string>();
  let hasAccepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(invalid(fld.index(i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const e of isDNS1035Label(v)) errs.push(invalid(fld.index(i), v, e));
    if (acceptedConversionReviewVersions.includes(v)) hasAccepted = true;
  });
  if (requireRecognized && !hasAccepted) {
    errs.push(invalid(fld, versions, `must include at least one of ${acceptedConversionReviewVersions.join(', ')}`));
  }
  return errs;
}

function hasValidConversionReviewVersionOrEmpty(versions: string[]): boolean {
  return versions.length < 1 || versions.some((v) => acceptedConversionReviewVersions.includes(v));
}

/** webhook.ValidateWebhookURL with forceHttps. */
function validateWebhookURL(fld: Path, raw: string): FieldError[] {
  const form = '; desired format: https://host[/path]';
  const errs: FieldError[] = [];
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    // Go's url.Parse accepts relative references; WHATWG URL does not. A string without a scheme
    // has no host either: report what Go reports for it.
    const scheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(raw) ? raw.slice(0, raw.indexOf(':')).toLowerCase() : '';
    if (scheme !== 'https') errs.push(invalid(fld, scheme, "'https' is the only allowed URL scheme" + form));
    errs.push(invalid(fld, '', 'host must be specified' + form));
    return errs;
  }
  const scheme = u.protocol.replace(/:$/, '');
  if (scheme !== 'https') errs.push(invalid(fld, scheme, "'https' is the only allowed URL scheme" + form));
  if (u.host.length === 0) errs.push(invalid(fld, u.host, 'host must be specified' + form));
  if (u.username || u.password) {
    errs.push(invalid(fld, u.password ? `${u.username}:${u.password}` : u.username, 'user information is not permitted in the URL'));
  }
  if (u.hash.length > 1) errs.push(invalid(fld, decodeURIComponent(u.hash.slice(1)), 'fragments are not permitted in the URL'));
  if (u.search.length > 1) errs.push(invalid(fld, u.search.slice(1), 'query parameters are not permitted in the URL'));
  return errs;
}

/** webhook.ValidateWebhookService. */
function validateWebhookService(fld: Path, namespace: string, name: string, path: string | null | undefined, port: number): FieldError[] {
  const errs: FieldError[] = [];
  if (!name) errs.push(required(fld.child('name'), ''));
  if (!namespace) errs.push(required(fld.child('namespace'), ''));
  const portErrs = isValidPortNum(port);
  if (portErrs.length > 0) errs.push(invalid(fld.child('port'), port, 'port is not valid: ' + portErrs.join(', ')));
  if (path === undefined || path === null) return errs;
  if (path === '/' || path.length === 0) return errs;
  if (path === '//') {
    errs.push(invalid(fld.child('path'), path, 'segment[0] may not be empty'));
    return errs;
  }
  if (!path.startsWith('/')) errs.push(invalid(fld.child('path'), path, "must start with a '/'"));
  let check = path.slice(1);
  if (check.endsWith('/')) check = check.slice(0, -1);
  check.split('/').forEach((step, i) => {
    if (step.length === 0) {
      errs.push(invalid(fld.child('path'), path, `segment[${i}] may not be empty`));
      return;
    }
    for (const f of isDNS1123Subdomain(step)) errs.push(invalid(fld.child('path'), path, `segment[${i}]: ${f}`));
  });
  return errs;
}

/** An invalid CA bundle is accepted before the CRD is established, or if the old one was invalid too. */
function allowInvalidCABundle(old: InternalCRD): boolean {
  if (!isConditionTrue(old, 'Established')) return true;
  const ca = old.spec?.conversion?.webhookClientConfig?.caBundle;
  if (!ca) return false;
  return validateCABundle(Path.of('caBundle'), ca).length > 0;
}

/** webhook.ValidateCABundle: the bundle must hold at least one PEM certificate. */
function validateCABundle(fld: Path, caBundleBase64: string): FieldError[] {
  const pem = Buffer.from(caBundleBase64, 'base64').toString('latin1');
  if (/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.test(pem)) return [];
  return [invalid(fld, Array.from(Buffer.from(caBundleBase64, 'base64')), 'unable to load root certificates: unable to parse bytes as PEM block')];
}

function subresourcesForVersion(spec: InternalSpec, version: string): Subresources | undefined {
  const versions = spec.versions ?? [];
  if (!hasPerVersion(versions, (v) => v.subresources)) return spec.subresources ?? undefined;
  return versions.find((v) => v.name === version)?.subresources ?? undefined;
}

function hasAnyStatusEnabled(spec: InternalSpec): boolean {
  if (spec.subresources?.status) return true;
  return (spec.versions ?? []).some((v) => !!v.subresources?.status);
}

function hasPerVersion(versions: InternalVersion[], get: (v: InternalVersion) => unknown): boolean {
  return versions.some((v) => get(v) !== undefined && get(v) !== null);
}

function identicalPerVersion(
  versions: InternalVersion[],
  get: (v: InternalVersion) => unknown,
  present: (x: unknown) => boolean,
): boolean {
  if (versions.length === 0) return false;
  const first = get(versions[0]!);
  return versions.every((v) => present(get(v)) && semanticEqual(get(v), first));
}

function allVersionsSpecifyOpenAPISchema(spec: InternalSpec): boolean {
  if (spec.validation?.openAPIV3Schema) return true;
  return (spec.versions ?? []).every((v) => !!v.schema?.openAPIV3Schema);
}

function hasSchemaWith(spec: InternalSpec, pred: (schema: JSONSchemaProps) => boolean): boolean {
  const g = spec.validation?.openAPIV3Schema as JSONSchemaProps | null | undefined;
  if (g && pred(g)) return true;
  return (spec.versions ?? []).some((v) => !!v.schema?.openAPIV3Schema && pred(v.schema.openAPIV3Schema as JSONSchemaProps));
}

/** GetSchemaForVersion: the top-level schema unless versions carry their own; 'malformed' if both do. */
function schemaForVersion(crd: InternalCRD, version: string): CustomResourceValidation | undefined | 'malformed' {
  const spec = crd.spec ?? {};
  const versions = spec.versions ?? [];
  if (!hasPerVersion(versions, (v) => v.schema)) return spec.validation ?? undefined;
  if (spec.validation) return 'malformed';
  return versions.find((v) => v.name === version)?.schema ?? undefined;
}

function findVersionsWithUnchangedSchemas(crd: InternalCRD, old: InternalCRD): Set<string> {
  const out = new Set<string>();
  for (const v of crd.spec?.versions ?? []) {
    const name = v.name ?? '';
    const a = schemaForVersion(crd, name);
    const b = schemaForVersion(old, name);
    if (a === 'malformed' || b === 'malformed') continue;
    if (semanticEqual(a, b)) out.add(name);
  }
  return out;
}

function findTooManySelectableFieldsAllowed(crd: InternalCRD, old: InternalCRD): Record<string, boolean> {
  const result: Record<string, boolean> = {};
  const oldSpec = old.spec ?? {};
  if ((oldSpec.selectableFields ?? []).length > MaxSelectableFields && semanticEqual(crd.spec?.selectableFields, oldSpec.selectableFields)) {
    result[''] = true;
  }
  const oldVersions = new Map((oldSpec.versions ?? []).map((v) => [v.name ?? '', v]));
  for (const v of crd.spec?.versions ?? []) {
    const o = oldVersions.get(v.name ?? '');
    if (o && (o.selectableFields ?? []).length > MaxSelectableFields && semanticEqual(v.selectableFields, o.selectableFields)) {
      result[v.name ?? ''] = true;
    }
  }
  return result;
}

function findPreexistingExpressions(spec: InternalSpec): { rules: Set<string>; messageExpressions: Set<string> } {
  const out = { rules: new Set<string>(), messageExpressions: new Set<string>() };
  hasSchemaWith(spec, (s) => {
    collectExpressions(s, out);
    return false;
  });
  return out;
}

function isProtectedCommunityGroup(group: string): boolean {
  return group === 'k8s.io' || group.endsWith('.k8s.io') || group === 'kubernetes.io' || group.endsWith('.kubernetes.io');
}

type ApprovalState = 'Invalid' | 'Approved' | 'Bypassed' | 'Missing';

function approvalState(annotations: Record<string, string>): [ApprovalState, string] {
  const a = annotations[KubeAPIApprovedAnnotation] ?? '';
  if (a.length === 0) {
    return ['Missing', `protected groups must have approval annotation "${KubeAPIApprovedAnnotation}", see https://github.com/kubernetes/enhancements/pull/1111`];
  }
  if (a.startsWith('unapproved')) return ['Bypassed', `not approved: ${JSON.stringify(a)}`];
  let ok = false;
  try {
    const u = new URL(a);
    ok = u.host.length > 0 && u.protocol.length > 1;
  } catch {
    ok = false;
  }
  if (ok) return ['Approved', `approved in ${a}`];
  return [
    'Invalid',
    `protected groups must have approval annotation "${KubeAPIApprovedAnnotation}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
  ];
}

function annotationsOf(crd: InternalCRD): Record<string, string> {
  const a = crd.metadata?.annotations;
  return isObject(a) ? (a as Record<string, string>) : {};
}

function validateAPIApproval(crd: InternalCRD, old: InternalCRD | undefined): FieldError[] {
  if (!isProtectedCommunityGroup(crd.spec?.group ?? '')) return [];
  const path = Path.of('metadata', 'annotations').key(KubeAPIApprovedAnnotation);
  const [state, reason] = approvalState(annotationsOf(crd));
  if (old !== undefined && approvalState(annotationsOf(old))[0] === state) return [];
  switch (state) {
    case 'Missing':
      return [required(path, reason)];
    case 'Approved':
    case 'Bypassed':
      return [];
    default:
      return [invalid(path, annotationsOf(crd)[KubeAPIApprovedAnnotation] ?? '', reason)];
  }
}

function validatePreserveUnknownFields(crd: InternalCRD, old: InternalCRD | undefined): FieldError[] {
  if (old?.spec?.preserveUnknownFields === true) return [];
  if (crd.spec?.preserveUnknownFields === true) {
    return [
      invalid(
        Path.of('spec').child('preserveUnknownFields'),
        true,
        'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
      ),
    ];
  }
  return [];
}
