/**
 * One object: its YAML in an editor (server-side dry run and apply, each error of the answer
 * marked at its line), the kind's schema tree, for custom resources the CRD's rules with their
 * estimated costs, the object's events and its managedFields. Tabs follow the WAI-ARIA tabs
 * pattern (arrow keys move between them).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { stringify } from 'yaml';
import { locateStatus, type LocatedError } from '../field-lines.ts';
import { nodeOfRulePath, ruleCosts } from '../rule-costs.ts';
import { encodeState } from '../playground/url-state.ts';
import { APIError, getJSON, resourcePath, send } from './api.ts';
import type { Editor } from './editor.ts';
import { CodeEditor, html } from './html.ts';
import type { Kind } from './kinds.ts';
import type { ObjectRef } from './objects.ts';
import { SchemaTree } from './schema-tree.ts';

type Obj = { metadata?: { name?: string; namespace?: string; uid?: string; managedFields?: ManagedField[] }; [k: string]: unknown };
interface ManagedField {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  subresource?: string;
  fieldsV1?: unknown;
}

const FIELD_MANAGER = 'crd-apiserver-console';

/** The YAML shown for editing: the object without managedFields (apply refuses them). */
function editableYAML(o: Obj): string {
  const copy = structuredClone(o);
  if (copy.metadata) delete copy.metadata.managedFields;
  return stringify(copy, { lineWidth: 0 });
}

function YAMLTab(p: { kind: Kind; object: Obj; path: string; onApplied: (o: Obj) => void }) {
  const [text, setText] = useState(() => editableYAML(p.object));
  const [errors, setErrors] = useState<LocatedError[]>([]);
  const [note, setNote] = useState<string>('');
  const [busy, setBusy] = useState(false);
  const editor = useRef<Editor | undefined>(undefined);
  useEffect(() => {
    setText(editableYAML(p.object));
    setErrors([]);
  }, [p.object]);
  const run = async (dryRun: boolean) => {
    const body = editor.current?.text() ?? text;
    setBusy(true);
    setNote('');
    try {
      const q = `?fieldManager=${FIELD_MANAGER}&force=true${dryRun ? '&dryRun=All' : ''}`;
      const r = await send('PATCH', p.path + q, body, 'application/apply-patch+yaml');
      setErrors([]);
      const warn = r.warnings.length ? ` Warnings: ${r.warnings.join('; ')}` : '';
      setNote((dryRun ? 'Dry run passed: the server would accept this.' : 'Applied.') + warn);
      if (!dryRun) p.onApplied(r.object as Obj);
    } catch (e) {
      const status = e instanceof APIError ? e.status : { message: String(e) };
      const located = locateStatus(body, status);
      setErrors(located);
      setNote(`${dryRun ? 'Dry run' : 'Apply'} refused: ${status.message ?? ''}`);
    } finally {
      setBusy(false);
    }
  };
  return html`<div class="yaml-tab">
    <div class="toolbar">
      <button type="button" id="dry-run" disabled=${busy} onClick=${() => void run(true)}>Dry run</button>
      <button type="button" id="apply" disabled=${busy} onClick=${() => void run(false)}>Apply</button>
      <button type="button" onClick=${() => (setText(editableYAML(p.object)), setErrors([]), editor.current?.setText(editableYAML(p.object)))}>Revert</button>
      <span class="muted">server-side apply as ${FIELD_MANAGER}</span>
    </div>
    <${CodeEditor} text=${text} label=${`YAML of ${p.object.metadata?.name ?? ''}`} language="yaml" id="object-yaml"
      editorRef=${(e: Editor | undefined) => (editor.current = e)}
      marks=${errors.map((e) => ({ line: e.line, message: e.message }))} />
    <div role="status" aria-live="polite" id="apply-result">${note}</div>
    ${errors.length > 0
      ? html`<ul class="errors" id="apply-errors">${errors.map((e) => html`<li data-line=${e.line}><button type="button" class="link" onClick=${() => goToLine(editor.current, e.line)}>line ${e.line}</button> ${e.message}</li>`)}</ul>`
      : ''}
  </div>`;
}

function goToLine(e: Editor | undefined, line: number): void {
  if (!e) return;
  const l = e.view.state.doc.line(Math.min(line, e.view.state.doc.lines));
  e.view.dispatch({ selection: { anchor: l.from }, scrollIntoView: true });
  e.view.focus();
}

function RulesTab(p: { kind: Kind }) {
  const [state, setState] = useState<ReturnType<typeof ruleCosts> | string | undefined>(undefined);
  const crdName = `${p.kind.resource}.${p.kind.group}`;
  useEffect(() => {
    getJSON<{ spec?: { versions?: { name: string; schema?: { openAPIV3Schema?: Record<string, unknown> } }[] } }>(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crdName}`)
      .then((crd) => {
        const s = crd.spec?.versions?.find((v) => v.name === p.kind.version)?.schema?.openAPIV3Schema;
        setState(s ? ruleCosts(s) : `version ${p.kind.version} has no schema`);
      })
      .catch((e: unknown) => setState((e as Error).message));
  }, [crdName, p.kind.version]);
  if (state === undefined) return html`<p>Estimating…</p>`;
  if (typeof state === 'string') return html`<p class="error" role="alert">${state}</p>`;
  const link = (path: string, expression: string) =>
    `cel${encodeState({ env: 'crd', expression, docs: {}, node: nodeOfRulePath(path), version: p.kind.version, crd: crdName })}`;
  return html`<div id="rules">
    <p>${state.rows.length} expressions, estimated total cost <strong>${state.total}</strong> (${state.share}% of the CRD's budget of 100000000).</p>
    ${state.errors.length ? html`<ul class="errors">${state.errors.map((e) => html`<li>${e}</li>`)}</ul>` : ''}
    <table class="grid">
      <thead><tr><th scope="col">cost</th><th scope="col">share</th><th scope="col">rule</th><th scope="col">per call × cardinality</th><th scope="col">would be bounded by</th></tr></thead>
      <tbody>${state.rows.map(
        (r) => html`<tr class=${r.overLimit ? 'over' : ''}>
          <td class="num">${r.cost}</td><td class="num">${r.share.toFixed(4)}%</td>
          <td><code class="path">${r.path}</code><pre class="expr">${r.expression}</pre>
            ${r.path.endsWith('.rule') ? html`<a href=${link(r.path, r.expression)}>open in the playground</a>` : ''}</td>
          <td>${r.perCall} × ${r.cardinality}</td><td>${r.boundBy.join('; ')}</td>
        </tr>`,
      )}</tbody>
    </table>
  </div>`;
}

function EventsTab(p: { object: Obj }) {
  const [events, setEvents] = useState<Record<string, unknown>[] | string | undefined>(undefined);
  const uid = p.object.metadata?.uid ?? '';
  useEffect(() => {
    getJSON<{ items?: Record<string, unknown>[] }>(`/api/v1/events?fieldSelector=${encodeURIComponent(`involvedObject.uid=${uid}`)}`)
      .then((l) => setEvents(l.items ?? []))
      .catch((e: unknown) => setEvents((e as Error).message));
  }, [uid]);
  if (events === undefined) return html`<p>Loading…</p>`;
  if (typeof events === 'string') return html`<p class="error" role="alert">${events}</p>`;
  if (events.length === 0) return html`<p class="muted" id="events">No events.</p>`;
  return html`<table class="grid" id="events"><thead><tr><th scope="col">TYPE</th><th scope="col">REASON</th><th scope="col">COUNT</th><th scope="col">LAST SEEN</th><th scope="col">MESSAGE</th></tr></thead>
    <tbody>${events.map((e) => html`<tr><td>${String(e.type ?? '')}</td><td>${String(e.reason ?? '')}</td><td>${String(e.count ?? 1)}</td><td>${String(e.lastTimestamp ?? e.eventTime ?? '')}</td><td>${String(e.message ?? '')}</td></tr>`)}</tbody></table>`;
}

function ManagedFieldsTab(p: { object: Obj }) {
  const mf = p.object.metadata?.managedFields ?? [];
  if (mf.length === 0) return html`<p class="muted" id="managed-fields">No managedFields.</p>`;
  return html`<table class="grid" id="managed-fields"><thead><tr><th scope="col">MANAGER</th><th scope="col">OPERATION</th><th scope="col">API VERSION</th><th scope="col">SUBRESOURCE</th><th scope="col">TIME</th><th scope="col">FIELDS</th></tr></thead>
    <tbody>${mf.map(
      (m) => html`<tr><td>${m.manager ?? ''}</td><td>${m.operation ?? ''}</td><td>${m.apiVersion ?? ''}</td><td>${m.subresource ?? ''}</td><td>${m.time ?? ''}</td>
        <td><details><summary>fields</summary><pre>${stringify(m.fieldsV1 ?? {}, { lineWidth: 0 })}</pre></details></td></tr>`,
    )}</tbody></table>`;
}

const tabs = ['YAML', 'Schema', 'Rules', 'Events', 'Managed fields'] as const;
type Tab = (typeof tabs)[number];

export function ObjectView(p: { kind: Kind; ref: ObjectRef; onClose: () => void }) {
  const [object, setObject] = useState<Obj | string | undefined>(undefined);
  const [tab, setTab] = useState<Tab>('YAML');
  const path = resourcePath(p.kind, p.kind.namespaced ? p.ref.namespace : undefined, p.ref.name);
  useEffect(() => {
    setObject(undefined);
    getJSON<Obj>(path)
      .then(setObject)
      .catch((e: unknown) => setObject((e as Error).message));
  }, [path]);
  const shown = tabs.filter((t) => t !== 'Rules' || p.kind.custom);
  const onKey = (e: KeyboardEvent) => {
    const i = shown.indexOf(tab);
    const next = e.key === 'ArrowRight' ? shown[(i + 1) % shown.length] : e.key === 'ArrowLeft' ? shown[(i + shown.length - 1) % shown.length] : undefined;
    if (next) {
      setTab(next);
      (document.getElementById(`tab-${next.replace(' ', '-')}`) as HTMLElement | null)?.focus();
    }
  };
  return html`<section class="object" aria-labelledby="object-title">
    <h2 id="object-title">${p.kind.kind} ${p.ref.namespace ? `${p.ref.namespace}/` : ''}${p.ref.name}
      <button type="button" class="close" aria-label="Close" onClick=${p.onClose}>×</button></h2>
    <div role="tablist" aria-label="Views of the object" onKeyDown=${onKey}>
      ${shown.map(
        (t) => html`<button type="button" role="tab" id=${`tab-${t.replace(' ', '-')}`} aria-selected=${t === tab} aria-controls="tab-panel" tabIndex=${t === tab ? 0 : -1} onClick=${() => setTab(t)}>${t}</button>`,
      )}
    </div>
    <div role="tabpanel" id="tab-panel" aria-labelledby=${`tab-${tab.replace(' ', '-')}`}>
      ${object === undefined
        ? html`<p>Loading…</p>`
        : typeof object === 'string'
          ? html`<p class="error" role="alert">${object}</p>`
          : tab === 'YAML'
            ? html`<${YAMLTab} kind=${p.kind} object=${object} path=${path} onApplied=${setObject} />`
            : tab === 'Schema'
              ? html`<${SchemaTree} kind=${p.kind} />`
              : tab === 'Rules'
                ? html`<${RulesTab} kind=${p.kind} />`
                : tab === 'Events'
                  ? html`<${EventsTab} object=${object} />`
                  : html`<${ManagedFieldsTab} object=${object} />`}
    </div>
  </section>`;
}
