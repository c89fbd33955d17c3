/**
 * The CEL playground page (`/console/cel`, and `cel.html` opened from disk): an expression in a
 * chosen environment with its input documents, evaluated in the page by the project's own CEL
 * engine (no server involved, so it works offline). Served by the API server, it can also take
 * a CRD's schema from the server by name. The whole state lives in the URL fragment, so a link
 * shares it.
 */
import { render } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { stringify } from 'yaml';
import { envInputs, runPlayground, schemaOf, type EnvName, type PlaygroundResult } from '../playground/evaluate.ts';
import { examples } from '../playground/examples.ts';
import { readInput } from '../playground/inputs.ts';
import { schemaNodes, schemaRules } from '../playground/schema-nodes.ts';
import { decodeState, encodeState, type PlaygroundState } from '../playground/url-state.ts';
import { getJSON } from './api.ts';
import { CodeEditor, html } from './html.ts';
import './style.css';

const envLabels: Record<EnvName, string> = {
  crd: 'CRD validation rule (self, oldSelf)',
  vap: 'ValidatingAdmissionPolicy (object, request, params, …)',
  map: 'MutatingAdmissionPolicy mutation',
  dra: 'DRA device selector (device)',
  plain: 'Plain CEL (Kubernetes libraries)',
};

const online = location.protocol === 'http:' || location.protocol === 'https:';

function Output(p: { result: PlaygroundResult | undefined }) {
  const r = p.result;
  if (r === undefined) return html`<p class="muted">Evaluating…</p>`;
  const e = r.error;
  return html`<dl class="output">
    <dt>Type</dt><dd id="pg-type">${r.type ?? '—'}</dd>
    <dt>Estimated cost</dt><dd id="pg-cost">${r.cost ? `${r.cost.min} – ${r.cost.max}` : '—'}${r.cost?.cardinality ? html` per call; × cardinality ${r.cost.cardinality} = <span id="pg-total-cost">${r.cost.total}</span>` : ''}</dd>
    <dt>Bounded by</dt><dd id="pg-bound">${!r.cost ? '—' : r.cost.boundBy.length ? html`<ul>${r.cost.boundBy.map((b) => html`<li>${b}</li>`)}</ul>` : 'every size it reads is bounded'}</dd>
    ${r.warnings?.length ? html`<dt>The server would refuse it</dt><dd id="pg-warnings"><ul>${r.warnings.map((w) => html`<li>${w}</li>`)}</ul></dd>` : ''}
    <dt>Result</dt>
    <dd id="pg-value" class=${e ? 'error' : 'value'}>${e
      ? html`<span id="pg-error" role="alert">${e.stage === 'compile' ? 'compile error' : e.stage === 'input' ? 'input error' : 'error'}${e.position ? ` at ${e.position.line}:${e.position.column}` : ''}${e.line ? ` (line ${e.line})` : ''}: <pre>${e.message}</pre></span>`
      : html`<pre>${JSON.stringify(r.value, null, 2)}</pre>${r.valueType ? html` <span class="muted">(${r.valueType})</span>` : ''}`}</dd>
    ${r.evaluations?.length ? html`<dt>Failures</dt><dd id="pg-evaluations"><ul>${r.evaluations.map((x) => html`<li>${x.message}</li>`)}</ul></dd>` : ''}
    <dt>Runtime cost</dt><dd id="pg-runtime-cost">${r.runtimeCost ?? '—'}</dd>
  </dl>`;
}

function App() {
  const [state, setState] = useState<PlaygroundState>(() => decodeState(location.hash) ?? examples.crd);
  const [result, setResult] = useState<PlaygroundResult | undefined>(undefined);
  const [crds, setCrds] = useState<string[]>([]);
  const [copied, setCopied] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const written = useRef('');

  // A schema named by its CRD comes from the server.
  useEffect(() => {
    if (!online) return;
    getJSON<{ items?: { metadata?: { name?: string } }[] }>('/apis/apiextensions.k8s.io/v1/customresourcedefinitions')
      .then((l) => setCrds((l.items ?? []).map((c) => c.metadata?.name ?? '').sort()))
      .catch(() => setCrds([]));
  }, []);
  useEffect(() => {
    if (!online || !state.crd || state.docs.schema) return;
    getJSON(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${encodeURIComponent(state.crd)}`)
      .then((crd) => {
        const c = structuredClone(crd) as { metadata?: Record<string, unknown>; status?: unknown };
        delete c.status;
        if (c.metadata) delete c.metadata.managedFields;
        setState((s) => ({ ...s, docs: { ...s.docs, schema: stringify(c, { lineWidth: 0 }) } }));
      })
      .catch((e: unknown) => setResult({ error: { stage: 'input', message: `schema: ${(e as Error).message}`, input: 'schema' } }));
  }, [state.crd, state.docs.schema]);

  // A link followed from this page (only the fragment changes) is a new state.
  useEffect(() => {
    const onHash = () => {
      const st = decodeState(location.hash);
      if (st && location.hash !== written.current) setState(st);
    };
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  // Evaluate (shortly after the last change) and keep the URL in step.
  useEffect(() => {
    written.current = encodeState(state);
    history.replaceState(null, '', written.current);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setResult(runPlayground(state)), 250);
  }, [state]);

  const schemaText = state.docs.schema;
  const schema = useMemo(() => {
    if (state.env !== 'crd') return undefined;
    const r = readInput('schema', schemaText);
    if ('error' in r) return undefined;
    const s = schemaOf(r.value, state.version);
    return typeof s === 'string' ? undefined : { ...s, versions: ((r.value as { spec?: { versions?: { name: string }[] } }).spec?.versions ?? []).map((v) => v.name) };
  }, [state.env, schemaText, state.version]);
  const nodes = useMemo(() => (schema ? schemaNodes(schema.schema) : []), [schema]);
  const rules = useMemo(() => (schema ? schemaRules(schema.schema) : []), [schema]);

  const set = (patch: Partial<PlaygroundState>) => setState((s) => ({ ...s, ...patch }));
  const setDoc = (name: string, text: string) => setState((s) => (s.docs[name] === text ? s : { ...s, docs: { ...s.docs, [name]: text }, ...(name === 'schema' ? { crd: undefined } : {}) }));
  const marks = result?.error?.position ? [{ line: result.error.position.line, column: result.error.position.column, message: result.error.message }] : [];

  return html`<div class="playground">
    <header>
      <h1>CEL playground</h1>
      ${online ? html`<a href="./">Console</a>` : html`<span class="muted">offline: evaluated in this page</span>`}
      <button type="button" id="copy-link" onClick=${() => {
        void navigator.clipboard?.writeText(location.href).then(() => setCopied('Link copied.'), () => setCopied('Copy the address bar to share.'));
      }}>Copy link</button>
      <span role="status" aria-live="polite">${copied}</span>
    </header>
    <div class="panes">
      <form class="inputs" onSubmit=${(e: Event) => (e.preventDefault(), setResult(runPlayground(state)))}>
        <label for="env">Environment</label>
        <select id="env" value=${state.env} onChange=${(e: Event) => {
          // Another environment starts from its example (the inputs differ from one to another).
          const env = (e.target as HTMLSelectElement).value as EnvName;
          if (env !== state.env) setState(examples[env]);
        }}>
          ${(Object.keys(envLabels) as EnvName[]).map((k) => html`<option value=${k}>${envLabels[k]}</option>`)}
        </select>
        <label id="expression-label">Expression <span class="muted">(Ctrl-Enter evaluates)</span></label>
        <${CodeEditor} text=${state.expression} label="Expression" id="expression" marks=${marks}
          onChange=${(t: string) => set({ expression: t })} onSubmit=${() => setResult(runPlayground(state))} />
        ${state.env === 'crd'
          ? html`<fieldset class="crd">
              <legend>Schema</legend>
              ${crds.length
                ? html`<label for="crd">CRD from the server</label>
                  <select id="crd" value=${state.crd ?? ''} onChange=${(e: Event) => {
                    const v = (e.target as HTMLSelectElement).value;
                    setState((s) => ({ ...s, crd: v || undefined, docs: { ...s.docs, schema: v ? '' : s.docs.schema }, node: '', version: undefined }));
                  }}>
                    <option value="">(the schema below)</option>
                    ${crds.map((c) => html`<option value=${c}>${c}</option>`)}
                  </select>`
                : ''}
              ${schema && schema.versions.length > 1
                ? html`<label for="version">Version</label>
                  <select id="version" value=${state.version ?? ''} onChange=${(e: Event) => set({ version: (e.target as HTMLSelectElement).value || undefined })}>
                    <option value="">(storage version)</option>
                    ${schema.versions.map((v) => html`<option value=${v}>${v}</option>`)}
                  </select>`
                : ''}
              <label for="node">The rule's node (self)</label>
              <select id="node" value=${state.node ?? ''} onChange=${(e: Event) => set({ node: (e.target as HTMLSelectElement).value })}>
                ${nodes.map((n) => html`<option value=${n}>${n === '' ? '(the root: the whole object)' : n}</option>`)}
              </select>
              ${rules.length
                ? html`<label for="rules">Rules of this schema</label>
                  <select id="rules" value="" onChange=${(e: Event) => {
                    const r = rules[Number((e.target as HTMLSelectElement).value)];
                    if (r) set({ expression: r.rule, node: r.node });
                  }}>
                    <option value="">(load one into the expression)</option>
                    ${rules.map((r, i) => html`<option value=${String(i)}>${r.node || '(root)'}: ${r.message ?? r.rule.slice(0, 80)}</option>`)}
                  </select>`
                : ''}
            </fieldset>`
          : ''}
        ${envInputs[state.env].map(
          (name) => html`<div class="doc" key=${`${state.env}/${name}`}>
            <label id=${`doc-${name}-label`}>${name} <span class="muted">(YAML)</span></label>
            <${CodeEditor} text=${state.docs[name] ?? ''} label=${name} id=${`doc-${name}`} language="yaml"
              marks=${result?.error?.input === name && result.error.line ? [{ line: result.error.line, message: result.error.message }] : []}
              onChange=${(t: string) => setDoc(name, t)} onSubmit=${() => setResult(runPlayground(state))} />
          </div>`,
        )}
        <button type="submit" id="evaluate">Evaluate</button>
      </form>
      <section class="result" aria-labelledby="result-title" aria-live="polite">
        <h2 id="result-title">Result</h2>
        <${Output} result=${result} />
      </section>
    </div>
  </div>`;
}

render(html`<${App} />`, document.getElementById('app')!);
