/**
 * The objects of one kind (in one namespace or all), as the server's Table shows them (the kind's
 * printer columns, as `kubectl get`), kept current by a watch: each event reloads the table
 * (coalesced), and a watch that ends is started again from a fresh list.
 */
import { useEffect, useState } from 'preact/hooks';
import { getJSON, resourcePath, tableAccept, watch, APIError } from './api.ts';
import { html } from './html.ts';
import type { Kind } from './kinds.ts';

interface Table {
  columnDefinitions?: { name: string; priority?: number; description?: string }[];
  rows?: { cells: unknown[]; object?: { metadata?: { name?: string; namespace?: string } } }[];
  metadata?: { resourceVersion?: string };
}

export interface ObjectRef {
  namespace?: string;
  name: string;
}

export function ObjectTable(p: { kind: Kind; namespace: string; selected?: ObjectRef; onOpen: (o: ObjectRef) => void }) {
  const [table, setTable] = useState<Table | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [live, setLive] = useState(false);
  const ns = p.kind.namespaced && p.namespace !== '' ? p.namespace : undefined;
  const path = resourcePath(p.kind, ns);
  useEffect(() => {
    const stop = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let rv = '';
    const load = async () => {
      const t = await getJSON<Table>(path, tableAccept, stop.signal);
      rv = t.metadata?.resourceVersion ?? '';
      setTable(t);
      setError(undefined);
    };
    const follow = async () => {
      while (!stop.signal.aborted) {
        try {
          await load();
          if (!p.kind.verbs.includes('watch')) return;
          setLive(true);
          await watch(`${path}?watch=1&allowWatchBookmarks=true&resourceVersion=${encodeURIComponent(rv)}`, (e) => {
            if (e.type === 'BOOKMARK') return;
            clearTimeout(timer);
            timer = setTimeout(() => void load().catch(() => undefined), 100);
          }, stop.signal);
        } catch (e) {
          if (stop.signal.aborted) return;
          setError(e instanceof APIError ? e.message : String(e));
        }
        setLive(false);
        await new Promise((r) => setTimeout(r, 1000));
      }
    };
    void follow();
    return () => {
      stop.abort();
      clearTimeout(timer);
    };
  }, [path]);
  const cols = (table?.columnDefinitions ?? []).map((c, i) => ({ ...c, i })).filter((c) => (c.priority ?? 0) === 0);
  const showNs = p.kind.namespaced && ns === undefined;
  return html`<section class="objects" aria-labelledby="objects-title">
    <h2 id="objects-title">${p.kind.kind} <span class="muted">${p.kind.group || 'core'}/${p.kind.version}</span>
      <span class=${live ? 'live on' : 'live'} title=${live ? 'watching for changes' : 'not watching'}>${live ? 'live' : 'offline'}</span></h2>
    ${error ? html`<p class="error" role="alert">${error}</p>` : ''}
    ${table === undefined
      ? html`<p>Loading…</p>`
      : html`<table class="grid" id="objects">
          <thead><tr>${showNs ? html`<th scope="col">NAMESPACE</th>` : ''}${cols.map((c) => html`<th scope="col" title=${c.description ?? ''}>${c.name.toUpperCase()}</th>`)}</tr></thead>
          <tbody>
            ${(table.rows ?? []).map((r) => {
              const m = r.object?.metadata ?? {};
              const ref = { name: m.name ?? '', ...(m.namespace ? { namespace: m.namespace } : {}) };
              const sel = p.selected?.name === ref.name && (p.selected?.namespace ?? '') === (ref.namespace ?? '');
              return html`<tr class=${sel ? 'selected' : ''} data-name=${ref.name}>
                ${showNs ? html`<td>${ref.namespace ?? ''}</td>` : ''}
                ${cols.map((c, j) =>
                  j === 0
                    ? html`<td><a href="#" onClick=${(e: Event) => (e.preventDefault(), p.onOpen(ref))}>${String(r.cells[c.i] ?? '')}</a></td>`
                    : html`<td>${String(r.cells[c.i] ?? '')}</td>`,
                )}
              </tr>`;
            })}
          </tbody>
        </table>
        ${(table.rows ?? []).length === 0 ? html`<p class="muted">No ${p.kind.resource}${ns ? ` in ${ns}` : ''}.</p>` : ''}`}
  </section>`;
}
