/**
 * A kind's schema as a tree, as `kubectl explain --recursive` reads it: from the server's OpenAPI
 * v3 document of the group-version (built-in and custom kinds alike), each field with its type,
 * whether it is required, and its description; references followed lazily, as a node is opened
 * (schemas such as JSONSchemaProps refer to themselves).
 */
import { useEffect, useState } from 'preact/hooks';
import { getJSON } from './api.ts';
import { html } from './html.ts';
import type { Kind } from './kinds.ts';

interface Schema {
  type?: string;
  format?: string;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
  allOf?: Schema[];
  $ref?: string;
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[];
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
}

interface Doc {
  components?: { schemas?: Record<string, Schema> };
}

/** A schema with its references resolved (one level: `$ref`, or allOf of one `$ref`). */
function resolve(doc: Doc, s: Schema): Schema {
  const ref = s.$ref ?? (s.allOf?.length === 1 ? s.allOf[0]!.$ref : undefined);
  if (ref === undefined) return s;
  const target = doc.components?.schemas?.[ref.replace('#/components/schemas/', '')] ?? {};
  return { ...target, description: s.description ?? target.description };
}

/** explain's type words: `<string>`, `<[]Container>`, `<map[string]string>`, `<Object>`. */
function typeName(doc: Doc, s: Schema): string {
  const r = resolve(doc, s);
  if (r['x-kubernetes-int-or-string']) return 'IntOrString';
  if (r.type === 'array' && r.items) return `[]${typeName(doc, r.items)}`;
  if (r.type === 'object' && typeof r.additionalProperties === 'object') return `map[string]${typeName(doc, r.additionalProperties)}`;
  if (r.type === 'object' || r.properties) {
    const ref = s.$ref ?? s.allOf?.[0]?.$ref;
    return ref ? ref.slice(ref.lastIndexOf('.') + 1) : 'Object';
  }
  return r.type ?? 'Object';
}

/** The fields under a node: an object's properties, through arrays and maps. */
function fieldsOf(doc: Doc, s: Schema): [string, Schema, boolean][] {
  let r = resolve(doc, s);
  for (let i = 0; i < 8; i++) {
    if (r.type === 'array' && r.items) r = resolve(doc, r.items);
    else if (typeof r.additionalProperties === 'object' && !r.properties) r = resolve(doc, r.additionalProperties);
    else break;
  }
  const req = new Set(r.required ?? []);
  return Object.entries(r.properties ?? {}).map(([k, v]) => [k, v, req.has(k)]);
}

function Field(p: { doc: Doc; name: string; schema: Schema; required: boolean; path: string }) {
  const [open, setOpen] = useState(false);
  const r = resolve(p.doc, p.schema);
  const children = open ? fieldsOf(p.doc, p.schema) : [];
  const leaf = fieldsOf(p.doc, p.schema).length === 0;
  const head = html`<code class="field">${p.name}</code> <span class="type">${`<${typeName(p.doc, p.schema)}>`}</span>${p.required ? html` <span class="required">-required-</span>` : ''}`;
  const desc = r.description ? html`<p class="desc">${r.description}</p>` : '';
  if (leaf) return html`<li data-path=${p.path}><div class="leaf">${head}</div>${desc}</li>`;
  return html`<li data-path=${p.path}>
    <details onToggle=${(e: Event) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>${head}</summary>
      ${desc}
      ${open ? html`<ul>${children.map(([k, v, req]) => html`<${Field} key=${k} doc=${p.doc} name=${k} schema=${v} required=${req} path=${`${p.path}.${k}`} />`)}</ul>` : ''}
    </details>
  </li>`;
}

export function SchemaTree(p: { kind: Kind }) {
  const [state, setState] = useState<{ doc: Doc; root: Schema } | string | undefined>(undefined);
  useEffect(() => {
    const path = p.kind.group === '' ? `/openapi/v3/api/${p.kind.version}` : `/openapi/v3/apis/${p.kind.group}/${p.kind.version}`;
    getJSON<Doc>(path)
      .then((doc) => {
        const root = Object.values(doc.components?.schemas ?? {}).find((s) =>
          (s['x-kubernetes-group-version-kind'] ?? []).some((g) => g.group === p.kind.group && g.version === p.kind.version && g.kind === p.kind.kind),
        );
        setState(root ? { doc, root } : `no schema for ${p.kind.kind} in ${path}`);
      })
      .catch((e: unknown) => setState(String((e as Error).message ?? e)));
  }, [p.kind.group, p.kind.version, p.kind.kind]);
  if (state === undefined) return html`<p>Loading the schema…</p>`;
  if (typeof state === 'string') return html`<p class="error" role="alert">${state}</p>`;
  return html`<div class="schema" id="schema-tree">
    <p><strong>KIND:</strong> ${p.kind.kind} <strong>VERSION:</strong> ${p.kind.group ? `${p.kind.group}/` : ''}${p.kind.version}</p>
    ${state.root.description ? html`<p class="desc">${state.root.description}</p>` : ''}
    <ul class="tree">${fieldsOf(state.doc, state.root).map(([k, v, req]) => html`<${Field} key=${k} doc=${state.doc} name=${k} schema=${v} required=${req} path=${k} />`)}</ul>
  </div>`;
}
