/**
 * The merge schema of the built-in kinds (what kube-apiserver's field managers get from
 * `managedfields.NewTypeConverter` over its OpenAPI models): one type converter per group-version,
 * converted from that group-version's vendored OpenAPI document when a kind of it is first written.
 * Merge keys, list types and map types come from the models' `x-kubernetes-*` extensions, as
 * kube-openapi's schema conversion reads them.
 */
import { newTypeConverter, schemaFromOpenAPI, type OpenAPISchema, type TypeConverter } from '../../apimachinery/index.ts';
import { builtinResources } from './catalog.ts';
import { openAPIDocument } from './openapi.ts';

const converters = new Map<string, TypeConverter>();

/** Kinds served from folders of their own whose group-version is not among the default ones. */
const ownKinds: Record<string, Record<string, string>> = {
  'apiextensions.k8s.io/v1': { CustomResourceDefinition: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition' },
};

/** The type converter of every built-in kind of `group`/`version`, built once. */
export function builtinTypeConverter(group: string, version: string): TypeConverter {
  const key = `${group}/${version}`;
  let tc = converters.get(key);
  if (!tc) {
    const { doc } = openAPIDocument(group, version);
    const schema = schemaFromOpenAPI(doc.components.schemas as Record<string, OpenAPISchema>);
    const apiVersion = group === '' ? version : `${group}/${version}`;
    const kinds = ownKinds[key] ?? Object.fromEntries(
      builtinResources()
        .filter((r) => r.group === group && r.version === version && r.schemaName !== '')
        .map((r) => [r.kind, r.schemaName]),
    );
    const types = new Map(Object.entries(kinds).map(([kind, namedType]) => [`${apiVersion}/${kind}`, { namedType }]));
    tc = newTypeConverter(schema, types);
    converters.set(key, tc);
  }
  return tc;
}

const objectMetaName = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
let metaModels: Record<string, OpenAPISchema> | undefined;

/**
 * ObjectMeta's model and every model it references, from the vendored documents: what a custom
 * resource's merge schema adds to its own (its `metadata`).
 */
export function objectMetaModels(): Record<string, OpenAPISchema> {
  if (metaModels) return metaModels;
  const all = openAPIDocument('coordination.k8s.io', 'v1').doc.components.schemas as Record<string, OpenAPISchema>;
  const out: Record<string, OpenAPISchema> = {};
  const pending = [objectMetaName];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (out[name] || !all[name]) continue;
    out[name] = all[name]!;
    const text = JSON.stringify(all[name]);
    for (const m of text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) pending.push(m[1]!);
  }
  return (metaModels = out);
}
