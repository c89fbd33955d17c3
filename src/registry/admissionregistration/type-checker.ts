/**
 * Type-checking a ValidatingAdmissionPolicy's expressions against the kinds it matches (the
 * validatingadmissionpolicy-status controller's TypeChecker, k8s.io/apiserver
 * pkg/admission/plugin/policy/validating/typechecking.go): the kinds are found from the
 * matchConstraints' resourceRules (no wildcards, no subresources, at most 10 per rule, sorted by
 * group, version, kind), each kind's schema resolved — a built-in kind's OpenAPI component, a
 * served CRD version's schema, both with ObjectMeta as the published documents have it — and every
 * validation expression and messageExpression compiled with `object`, `oldObject` and `params`
 * typed by those schemas. What fails to check becomes an ExpressionWarning worded as upstream
 * (`apps/v1, Kind=Deployment: ERROR: <input>:1:7: undefined field 'foo' ...`). A kind whose
 * schema is not found is skipped: type checking never changes what the policy does.
 */
import { listAt, objectAt, stringAt, stringsAt, type JSONObject } from './values.ts';
import { AdmissionCompiler, kindDeclType, newStructural, type JSONSchemaProps, type Structural, type TypeOverwrite } from '../../schema/index.ts';
import { builtinResources } from '../builtin/catalog.ts';
import { openAPIDocument } from '../builtin/openapi.ts';
import { kindSchema } from '../builtin/schema.ts';
import type { Obj } from '../rest.ts';
import type { ExpressionWarning, PolicyTypeChecker } from './status-controller.ts';

/** typechecking.go's maxTypesToCheck: the kinds one resource rule contributes at most. */
export const MAX_TYPES_TO_CHECK = 10;

export interface GVK {
  group: string;
  version: string;
  kind: string;
}

/** What type checking needs of the served kinds (RESTMapper.KindsFor and the SchemaResolver). */
export interface KindResolver {
  /** The kinds `group/version/resource` is served as; none when it is not served. */
  kindsFor(group: string, version: string, resource: string): GVK[];
  /** The kind's schema (a resource root), or undefined when it has none (ErrSchemaNotFound). */
  schemaOf(gvk: GVK): Structural | undefined;
}

/** schema.GroupVersionKind's String(): `apps/v1, Kind=Deployment`, `/v1, Kind=Pod`. */
export const gvkString = (g: GVK): string => `${g.group}/${g.version}, Kind=${g.kind}`;

const compareGVK = (a: GVK, b: GVK): number => (a.group !== b.group ? (a.group < b.group ? -1 : 1) : a.version !== b.version ? (a.version < b.version ? -1 : 1) : a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0);

/** typesToCheck: the kinds a policy's resource rules name, sorted by group, version and kind. */
export function typesToCheck(policy: JSONObject, resolver: KindResolver): GVK[] {
  const rules = listAt(objectAt(objectAt(policy.spec)?.matchConstraints)?.resourceRules);
  const found = new Map<string, GVK>();
  const sorted = () => [...found.values()].sort(compareGVK);
  for (const r of rules) {
    const rule = objectAt(r) ?? {};
    // A wildcard group or version gives up on the rule; wildcard resources and subresources are skipped.
    const groups = stringsAt(rule.apiGroups);
    if (groups.length === 0 || groups.some((g) => g.includes('*'))) continue;
    const versions = stringsAt(rule.apiVersions);
    if (versions.length === 0 || versions.some((v) => v.includes('*'))) continue;
    const resources = stringsAt(rule.resources).filter((x) => !/[*/]/.test(x));
    if (resources.length === 0) continue;
    let count = 0;
    for (const group of [...groups].sort()) {
      for (const version of [...versions].sort()) {
        for (const resource of [...resources].sort()) {
          for (const gvk of resolver.kindsFor(group, version, resource)) {
            found.set(gvkString(gvk), gvk);
            // Upstream stops collecting altogether once one rule has contributed the maximum.
            if (++count === MAX_TYPES_TO_CHECK) return sorted();
          }
        }
      }
    }
  }
  return sorted();
}

/** paramsGVK: the paramKind's kind, or undefined without one (or when its apiVersion does not parse). */
function paramsGVK(policy: JSONObject): GVK | undefined {
  const pk = objectAt(objectAt(policy.spec)?.paramKind);
  if (pk === undefined) return undefined;
  const apiVersion = stringAt(pk.apiVersion);
  const parts = apiVersion === '' || apiVersion === '/' ? ['', ''] : apiVersion.split('/');
  if (parts.length > 2) return undefined;
  const [group, version] = parts.length === 1 ? ['', parts[0]!] : [parts[0]!, parts[1]!];
  const gvk = { group, version, kind: stringAt(pk.kind) };
  return gvk.group === '' && gvk.version === '' && gvk.kind === '' ? undefined : gvk;
}

/** One expression checked against every kind (CheckExpression): the warning text, or '' when all pass. */
function checkExpression(expression: string, kinds: readonly { gvk: GVK; overwrite: TypeOverwrite }[], hasParams: boolean, variables: readonly JSONObject[]): string {
  const messages: string[] = [];
  const decls = { hasParams, hasAuthorizer: true };
  for (const { gvk, overwrite } of kinds) {
    const compiler = new AdmissionCompiler(overwrite);
    // Variables that fail to check are declared dyn and not reported (upstream checks only validations).
    for (const v of variables) compiler.compileVariable(stringAt(v.name), stringAt(v.expression), decls);
    const r = compiler.compile(expression, 'any', decls);
    if (r.error !== undefined) messages.push(`${gvkString(gvk)}: ${r.error}\n`);
  }
  return messages.join('\n');
}

/** Check: the warnings of a policy's validations (expression, then messageExpression, in order). */
export function typeCheckPolicy(policy: JSONObject, resolver: KindResolver): ExpressionWarning[] {
  const kinds: { gvk: GVK; overwrite: TypeOverwrite }[] = [];
  const pgvk = paramsGVK(policy);
  const paramsSchema = pgvk === undefined ? undefined : resolver.schemaOf(pgvk);
  for (const gvk of typesToCheck(policy, resolver)) {
    const schema = resolver.schemaOf(gvk);
    if (schema === undefined) continue;
    const object = kindDeclType(schema, gvk.kind);
    // A param of another kind with the same name gets its own type name.
    const paramsName = pgvk !== undefined && pgvk.kind === gvk.kind && gvkString(pgvk) !== gvkString(gvk) ? `${pgvk.kind}Params` : pgvk?.kind;
    const params = paramsSchema === undefined ? undefined : kindDeclType(paramsSchema, paramsName!);
    kinds.push({ gvk, overwrite: { object, params } });
  }
  if (kinds.length === 0) return [];
  const spec = objectAt(policy.spec) ?? {};
  const variables = listAt(spec.variables).map((v) => objectAt(v) ?? {});
  const warnings: ExpressionWarning[] = [];
  listAt(spec.validations).forEach((v, i) => {
    const validation = objectAt(v) ?? {};
    const expression = stringAt(validation.expression);
    const w = checkExpression(expression, kinds, pgvk !== undefined, variables);
    if (w !== '') warnings.push({ fieldRef: `spec.validations[${i}].expression`, warning: w });
    const messageExpression = stringAt(validation.messageExpression);
    if (messageExpression === '') return;
    const m = checkExpression(messageExpression, kinds, pgvk !== undefined, variables);
    if (m !== '') warnings.push({ fieldRef: `spec.validations[${i}].messageExpression`, warning: m });
  });
  return warnings;
}

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** ObjectMeta's schema as the OpenAPI documents publish it (the root `metadata` of every kind). */
let objectMetaSchema: JSONSchemaProps | undefined;
function objectMeta(): JSONSchemaProps {
  return (objectMetaSchema ??= kindSchema(openAPIDocument('', 'v1').doc, OBJECT_META));
}

/** A kind's schema with `kind`, `apiVersion` and the full ObjectMeta, as its published document has them. */
function asPublished(s: JSONSchemaProps): JSONSchemaProps {
  return { ...s, properties: { ...(s.properties ?? {}), kind: { type: 'string' }, apiVersion: { type: 'string' }, metadata: objectMeta() } };
}

function structuralOf(s: JSONSchemaProps): Structural | undefined {
  try {
    return newStructural(asPublished(s));
  } catch {
    // A schema the structural model refuses cannot type anything: the kind is skipped.
    return undefined;
  }
}

const builtinSchemas = new Map<string, Structural | undefined>();

/**
 * The served kinds: built-in kinds from the catalogue and their OpenAPI components, custom
 * resources from the CRDs given (their served versions).
 */
export function servedKindResolver(crds: readonly Obj[]): KindResolver {
  const crdSchemas = new Map<string, Structural | undefined>();
  const crdVersions = (crd: Obj) => {
    const spec = objectAt(crd.spec) ?? {};
    const names = objectAt(spec.names) ?? {};
    return listAt(spec.versions)
      .map((v) => objectAt(v) ?? {})
      .filter((v) => v.served !== false)
      .map((v) => ({ group: stringAt(spec.group), plural: stringAt(names.plural), kind: stringAt(names.kind), version: v }));
  };
  return {
    kindsFor(group, version, resource) {
      const b = builtinResources().filter((r) => r.group === group && r.version === version && r.resource === resource);
      if (b.length > 0) return b.map((r) => ({ group, version, kind: r.kind }));
      for (const crd of crds) {
        for (const v of crdVersions(crd)) {
          if (v.group === group && v.plural === resource && stringAt(v.version.name) === version) return [{ group, version, kind: v.kind }];
        }
      }
      return [];
    },
    schemaOf(gvk) {
      const b = builtinResources().find((r) => r.group === gvk.group && r.version === gvk.version && r.kind === gvk.kind);
      if (b !== undefined) {
        if (!builtinSchemas.has(b.schemaName)) builtinSchemas.set(b.schemaName, structuralOf(kindSchema(openAPIDocument(b.group, b.version).doc, b.schemaName)));
        return builtinSchemas.get(b.schemaName);
      }
      for (const crd of crds) {
        for (const v of crdVersions(crd)) {
          if (v.group !== gvk.group || v.kind !== gvk.kind || stringAt(v.version.name) !== gvk.version) continue;
          const key = gvkString(gvk);
          if (!crdSchemas.has(key)) {
            const s = objectAt(objectAt(v.version.schema)?.openAPIV3Schema);
            crdSchemas.set(key, s === undefined ? undefined : structuralOf(s as JSONSchemaProps));
          }
          return crdSchemas.get(key);
        }
      }
      return undefined;
    },
  };
}

/** The status controller's type checker over the built-in kinds and the CRDs `crds` lists. */
export function admissionPolicyTypeChecker(crds: () => Promise<Obj[]>): PolicyTypeChecker {
  return {
    async check(policy) {
      return typeCheckPolicy(policy, servedKindResolver(await crds()));
    },
  };
}
