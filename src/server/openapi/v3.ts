/**
 * OpenAPI v3 documents per group version, built from the served table as kube-apiserver's
 * builder and apiextensions' CRD builder do: paths with one operation per verb (each tagged with
 * `x-kubernetes-action` and `x-kubernetes-group-version-kind`; writes declare `dryRun`,
 * `fieldManager` and `fieldValidation`, which is how kubectl detects server-side field
 * validation), and components.schemas holding each kind's schema tagged with its GVK (what
 * `kubectl explain` reads), ObjectMeta by `$ref`.
 */
import { deepCopyJSON } from '../../apimachinery/index.ts';
import type { ServedResource } from '../served.ts';
import { hasSubresource } from '../../registry/index.ts';
import {
  allOfRef,
  apiVersionDescription,
  kindDescription,
  listMetadataDescription,
  metadataDescription,
  metaPrefix,
  metaSchemas,
  namespaceSchemas,
  ref,
} from './meta-schemas.ts';

type Obj = Record<string, unknown>;

/** The component name of a kind: reversed group, version, kind (`com.example.stable.v1.CronTab`). */
export function schemaName(r: Pick<ServedResource, 'group' | 'version' | 'kind' | 'custom'>, kind = r.kind): string {
  if (r.group === '') return `io.k8s.api.core.v1.${kind}`;
  if (r.group === 'apiextensions.k8s.io') return `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.${r.version}.${kind}`;
  return `${r.group.split('.').reverse().join('.')}.${r.version}.${kind}`;
}

function upperCamel(s: string): string {
  return s
    .split(/[.\-]/)
    .filter((x) => x !== '')
    .map((x) => x[0]!.toUpperCase() + x.slice(1))
    .join('');
}

const param = (name: string, description: string, inWhere = 'query', extra: Obj = {}): Obj => ({
  name,
  in: inWhere,
  description,
  schema: { type: 'string', uniqueItems: true },
  ...extra,
});

const dryRunP = param('dryRun', 'When present, indicates that modifications should not be persisted. Valid values are: - All: all dry run stages will be processed');
const fieldManagerP = param('fieldManager', 'fieldManager is a name associated with the actor or entity that is making these changes.');
const fieldValidationP = param(
  'fieldValidation',
  'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore - Warn - Strict',
);
const forceP = { name: 'force', in: 'query', description: 'Force is going to "force" Apply requests.', schema: { type: 'boolean', uniqueItems: true } };
const listParams = [
  { name: 'allowWatchBookmarks', in: 'query', description: 'allowWatchBookmarks requests watch events with type "BOOKMARK".', schema: { type: 'boolean', uniqueItems: true } },
  param('continue', 'The continue option should be set when retrieving more results from the server.'),
  param('fieldSelector', 'A selector to restrict the list of returned objects by their fields. Defaults to everything.'),
  param('labelSelector', 'A selector to restrict the list of returned objects by their labels. Defaults to everything.'),
  { name: 'limit', in: 'query', description: 'limit is a maximum number of responses to return for a list call.', schema: { type: 'integer', uniqueItems: true } },
  param('resourceVersion', 'resourceVersion sets a constraint on what resource versions a request may be served from.'),
  param('resourceVersionMatch', 'resourceVersionMatch determines how resourceVersion is applied to list calls.'),
  { name: 'sendInitialEvents', in: 'query', description: '`sendInitialEvents=true` may be set together with `watch=true`.', schema: { type: 'boolean', uniqueItems: true } },
  { name: 'timeoutSeconds', in: 'query', description: 'Timeout for the list/watch call.', schema: { type: 'integer', uniqueItems: true } },
  { name: 'watch', in: 'query', description: 'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications.', schema: { type: 'boolean', uniqueItems: true } },
];

function content(schema: Obj): Obj {
  return { 'application/json': { schema }, 'application/yaml': { schema } };
}

function op(r: ServedResource, action: string, opId: string, parameters: Obj[], responses: Obj, body?: Obj, kind = r.kind, group = r.group, version = r.version): Obj {
  const o: Obj = {
    tags: [`${upperCamel(r.group || 'core')}_${r.version}`],
    description: `${action} ${kind}`,
    operationId: opId,
    parameters,
  };
  if (body) o.requestBody = body;
  o.responses = responses;
  o['x-kubernetes-action'] = action;
  o['x-kubernetes-group-version-kind'] = { group, version, kind };
  return o;
}

function resp(code: string, schema: Obj, desc = 'OK'): Obj {
  return { [code]: { description: desc, content: content(schema) } };
}

/** Adds the paths of one served resource. */
function addPaths(paths: Obj, r: ServedResource): void {
  const base = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  const nsSeg = r.namespaced ? '/namespaces/{namespace}' : '';
  const ns = r.namespaced ? 'Namespaced' : '';
  const gv = upperCamel(r.group || 'core') + upperCamel(r.version);
  const kindRef = ref(schemaName(r));
  const listRef = ref(schemaName(r, r.listKind));
  const statusRef = ref(`${metaPrefix}.Status`);
  const pathParams: Obj[] = [];
  if (r.namespaced) pathParams.push(param('namespace', 'object name and auth scope, such as for teams and projects', 'path', { required: true }));
  pathParams.push(param('pretty', "If 'true', then the output is pretty printed."));
  const objBody = { content: { '*/*': { schema: kindRef } }, required: true };
  const patchTypes = ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json'];
  if (r.strategicMerge) patchTypes.push('application/strategic-merge-patch+json');
  const patchBody = { content: Object.fromEntries(patchTypes.map((t) => [t, { schema: ref(`${metaPrefix}.Patch`) }])), required: true };
  const deleteBody = { content: { '*/*': { schema: ref(`${metaPrefix}.DeleteOptions`) } } };

  paths[`${base}${nsSeg}/${r.resource}`] = {
    get: op(r, 'list', `list${gv}${ns}${r.kind}`, listParams, resp('200', listRef)),
    post: op(r, 'post', `create${gv}${ns}${r.kind}`, [dryRunP, fieldManagerP, fieldValidationP], { ...resp('200', kindRef), ...resp('201', kindRef, 'Created') }, objBody),
    ...(r.custom
      ? { delete: op(r, 'deletecollection', `deletecollection${gv}${ns}${r.kind}`, [...listParams, dryRunP], resp('200', statusRef), deleteBody) }
      : {}),
    parameters: pathParams,
  };
  const nameParams = [param('name', `name of the ${r.kind}`, 'path', { required: true }), ...pathParams];
  paths[`${base}${nsSeg}/${r.resource}/{name}`] = {
    get: op(r, 'get', `read${gv}${ns}${r.kind}`, [], resp('200', kindRef)),
    put: op(r, 'put', `replace${gv}${ns}${r.kind}`, [dryRunP, fieldManagerP, fieldValidationP], { ...resp('200', kindRef), ...resp('201', kindRef, 'Created') }, objBody),
    delete: op(r, 'delete', `delete${gv}${ns}${r.kind}`, [dryRunP, { name: 'gracePeriodSeconds', in: 'query', schema: { type: 'integer', uniqueItems: true } }, param('propagationPolicy', 'Whether and how garbage collection will be performed.')], { ...resp('200', statusRef), ...resp('202', statusRef, 'Accepted') }, deleteBody),
    patch: op(r, 'patch', `patch${gv}${ns}${r.kind}`, [dryRunP, fieldManagerP, fieldValidationP, forceP], { ...resp('200', kindRef), ...resp('201', kindRef, 'Created') }, patchBody),
    parameters: nameParams,
  };
  if (hasSubresource(r, 'status')) {
    paths[`${base}${nsSeg}/${r.resource}/{name}/status`] = {
      get: op(r, 'get', `read${gv}${ns}${r.kind}Status`, [], resp('200', kindRef)),
      put: op(r, 'put', `replace${gv}${ns}${r.kind}Status`, [dryRunP, fieldManagerP, fieldValidationP], { ...resp('200', kindRef), ...resp('201', kindRef, 'Created') }, objBody),
      patch: op(r, 'patch', `patch${gv}${ns}${r.kind}Status`, [dryRunP, fieldManagerP, fieldValidationP, forceP], { ...resp('200', kindRef), ...resp('201', kindRef, 'Created') }, patchBody),
      parameters: nameParams,
    };
  }
  if (r.scale) {
    const scaleRef = ref('io.k8s.api.autoscaling.v1.Scale');
    const scaleBody = { content: { '*/*': { schema: scaleRef } }, required: true };
    paths[`${base}${nsSeg}/${r.resource}/{name}/scale`] = {
      get: op(r, 'get', `read${gv}${ns}${r.kind}Scale`, [], resp('200', scaleRef), undefined, 'Scale', 'autoscaling', 'v1'),
      put: op(r, 'put', `replace${gv}${ns}${r.kind}Scale`, [dryRunP, fieldManagerP, fieldValidationP], resp('200', scaleRef), scaleBody, 'Scale', 'autoscaling', 'v1'),
      patch: op(r, 'patch', `patch${gv}${ns}${r.kind}Scale`, [dryRunP, fieldManagerP, fieldValidationP, forceP], resp('200', scaleRef), patchBody, 'Scale', 'autoscaling', 'v1'),
      parameters: nameParams,
    };
  }
  if (r.namespaced) {
    paths[`${base}/${r.resource}`] = {
      get: op(r, 'list', `list${gv}${r.kind}ForAllNamespaces`, listParams, resp('200', listRef)),
      parameters: [param('pretty', "If 'true', then the output is pretty printed.")],
    };
  }
}

/** The kind schema of a custom resource: the CRD's schema with apiVersion, kind and metadata set. */
export function customResourceSchema(r: ServedResource): Obj {
  const s = deepCopyJSON(r.schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }) as Obj;
  if (s.type === undefined) s.type = 'object';
  const props = { ...((s.properties as Obj | undefined) ?? {}) };
  props.apiVersion = { type: 'string', description: apiVersionDescription };
  props.kind = { type: 'string', description: kindDescription };
  props.metadata = allOfRef(`${metaPrefix}.ObjectMeta`, { description: metadataDescription });
  s.properties = props;
  s['x-kubernetes-group-version-kind'] = [{ group: r.group, kind: r.kind, version: r.version }];
  return s;
}

function listSchema(r: ServedResource): Obj {
  return {
    description: `${r.listKind} is a list of ${r.kind}`,
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: { type: 'string', description: apiVersionDescription },
      items: { type: 'array', description: `List of ${r.resource.toLowerCase()}.`, items: ref(schemaName(r)) },
      kind: { type: 'string', description: kindDescription },
      metadata: allOfRef(`${metaPrefix}.ListMeta`, { description: listMetadataDescription }),
    },
    'x-kubernetes-group-version-kind': [{ group: r.group, kind: r.listKind, version: r.version }],
  };
}

function crdSchemas(): Record<string, Obj> {
  const p = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1';
  return {
    [`${p}.CustomResourceDefinition`]: {
      description: 'CustomResourceDefinition represents a resource that should be exposed on the API server.  Its name MUST be in the format <.spec.name>.<.spec.group>.',
      type: 'object',
      required: ['spec'],
      properties: {
        apiVersion: { type: 'string', description: apiVersionDescription },
        kind: { type: 'string', description: kindDescription },
        metadata: allOfRef(`${metaPrefix}.ObjectMeta`, { default: {}, description: metadataDescription }),
        spec: { type: 'object', description: 'spec describes how the user wants the resources to appear', 'x-kubernetes-preserve-unknown-fields': true },
        status: { type: 'object', description: 'status indicates the actual state of the CustomResourceDefinition', 'x-kubernetes-preserve-unknown-fields': true },
      },
      'x-kubernetes-group-version-kind': [{ group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition', version: 'v1' }],
    },
    [`${p}.CustomResourceDefinitionList`]: {
      type: 'object',
      required: ['items'],
      properties: {
        apiVersion: { type: 'string', description: apiVersionDescription },
        items: { type: 'array', items: allOfRef(`${p}.CustomResourceDefinition`, { default: {} }) },
        kind: { type: 'string', description: kindDescription },
        metadata: allOfRef(`${metaPrefix}.ListMeta`, { default: {}, description: listMetadataDescription }),
      },
      'x-kubernetes-group-version-kind': [{ group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinitionList', version: 'v1' }],
    },
  };
}

const scaleSchemas = (): Record<string, Obj> => ({
  'io.k8s.api.autoscaling.v1.Scale': {
    description: 'Scale represents a scaling request for a resource.',
    type: 'object',
    properties: {
      apiVersion: { type: 'string', description: apiVersionDescription },
      kind: { type: 'string', description: kindDescription },
      metadata: allOfRef(`${metaPrefix}.ObjectMeta`, { default: {}, description: metadataDescription }),
      spec: { type: 'object', properties: { replicas: { type: 'integer', format: 'int32', description: 'replicas is the desired number of instances for the scaled object.' } } },
      status: { type: 'object', required: ['replicas'], properties: { replicas: { type: 'integer', format: 'int32', default: 0 }, selector: { type: 'string' } } },
    },
    'x-kubernetes-group-version-kind': [{ group: 'autoscaling', kind: 'Scale', version: 'v1' }],
  },
});

/** The OpenAPI v3 document of one group version (`''` group: the core group). */
export function groupVersionDocument(resources: ServedResource[], group: string, version: string): Obj {
  const mine = resources.filter((r) => r.group === group && r.version === version).sort((a, b) => (a.resource < b.resource ? -1 : 1));
  const paths: Obj = {};
  let schemas: Record<string, Obj> = metaSchemas();
  for (const r of mine) {
    addPaths(paths, r);
    if (r.custom) {
      schemas[schemaName(r)] = customResourceSchema(r);
      schemas[schemaName(r, r.listKind)] = listSchema(r);
    } else if (r.group === '' && r.resource === 'namespaces') {
      schemas = { ...schemas, ...namespaceSchemas() };
    } else if (r.group === 'apiextensions.k8s.io') {
      schemas = { ...schemas, ...crdSchemas() };
    }
    if (r.scale) schemas = { ...schemas, ...scaleSchemas() };
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: 'v1.35.0' },
    paths,
    components: { schemas },
  };
}
