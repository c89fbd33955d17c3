/**
 * The console page (`/console/`): the kinds the server serves (built-in and custom, with group,
 * version, scope and object counts), the objects of the chosen kind in the chosen namespace as
 * a live table, and the chosen object. What is chosen is kept in the URL's fragment
 * (`#kind=apps/v1/deployments&ns=default&obj=default/web`), so the back button and links work.
 */
import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { getJSON } from './api.ts';
import { html } from './html.ts';
import { countObjects, eachLimited, kindKey, loadKinds, type Kind } from './kinds.ts';
import { ObjectTable, type ObjectRef } from './objects.ts';
import { ObjectView } from './object-view.ts';
import './style.css';

interface Route {
  kind?: string;
  ns: string;
  obj?: ObjectRef;
}

function readRoute(): Route {
  const q = new URLSearchParams(location.hash.slice(1));
  const obj = q.get('obj');
  const slash = obj?.indexOf('/') ?? -1;
  return {
    ...(q.get('kind') ? { kind: q.get('kind')! } : {}),
    ns: q.get('ns') ?? 'default',
    ...(obj ? { obj: slash < 0 ? { name: obj } : { namespace: obj.slice(0, slash) || undefined, name: obj.slice(slash + 1) } } : {}),
  } as Route;
}

function writeRoute(r: Route): void {
  const q = new URLSearchParams();
  if (r.kind) q.set('kind', r.kind);
  q.set('ns', r.ns);
  if (r.obj) q.set('obj', `${r.obj.namespace ?? ''}/${r.obj.name}`);
  const hash = `#${q.toString()}`;
  if (location.hash !== hash) history.pushState(null, '', hash);
}

function KindList(p: { kinds: Kind[]; counts: Map<string, number>; current?: string; onPick: (k: Kind) => void }) {
  const [filter, setFilter] = useState('');
  const f = filter.toLowerCase();
  const shown = p.kinds.filter((k) => f === '' || k.kind.toLowerCase().includes(f) || k.resource.includes(f) || k.group.includes(f));
  return html`<nav class="kinds" aria-label="Kinds">
    <label for="kind-filter">Filter kinds</label>
    <input id="kind-filter" type="search" value=${filter} onInput=${(e: Event) => setFilter((e.target as HTMLInputElement).value)} />
    <table class="grid" id="kinds">
      <thead><tr><th scope="col">KIND</th><th scope="col">GROUP/VERSION</th><th scope="col">SCOPE</th><th scope="col" class="num">COUNT</th></tr></thead>
      <tbody>${shown.map((k) => {
        const key = kindKey(k);
        return html`<tr class=${key === p.current ? 'selected' : ''} data-kind=${key} data-custom=${k.custom ? 'true' : 'false'}>
          <td><a href=${`#kind=${encodeURIComponent(key)}`} aria-current=${key === p.current ? 'page' : undefined} onClick=${(e: Event) => (e.preventDefault(), p.onPick(k))}>${k.kind}</a>${k.custom ? html` <span class="badge" title="defined by a CustomResourceDefinition">CRD</span>` : ''}</td>
          <td>${k.group ? `${k.group}/` : ''}${k.version}</td>
          <td>${k.namespaced ? 'Namespaced' : 'Cluster'}</td>
          <td class="num">${p.counts.get(key) ?? ''}</td>
        </tr>`;
      })}</tbody>
    </table>
  </nav>`;
}

function App() {
  const [kinds, setKinds] = useState<Kind[] | string | undefined>(undefined);
  const [counts, setCounts] = useState(new Map<string, number>());
  const [namespaces, setNamespaces] = useState<string[]>([]);
  const [route, setRoute] = useState<Route>(readRoute);
  useEffect(() => {
    const onPop = () => setRoute(readRoute());
    addEventListener('popstate', onPop);
    addEventListener('hashchange', onPop);
    loadKinds()
      .then((ks) => {
        setKinds(ks);
        const c = new Map<string, number>();
        void eachLimited(ks, 6, async (k) => {
          const n = await countObjects(k);
          if (n !== undefined) c.set(kindKey(k), n);
          setCounts(new Map(c));
        });
      })
      .catch((e: unknown) => setKinds((e as Error).message));
    getJSON<{ items?: { metadata?: { name?: string } }[] }>('/api/v1/namespaces')
      .then((l) => setNamespaces((l.items ?? []).map((n) => n.metadata?.name ?? '')))
      .catch(() => setNamespaces(['default']));
    return () => {
      removeEventListener('popstate', onPop);
      removeEventListener('hashchange', onPop);
    };
  }, []);
  const go = (r: Route) => {
    writeRoute(r);
    setRoute(r);
  };
  const list = typeof kinds === 'object' ? kinds : [];
  const kind = useMemo(() => list.find((k) => kindKey(k) === route.kind), [kinds, route.kind]);
  return html`<div class="console">
    <header>
      <h1>crd-apiserver</h1>
      <a href="cel">CEL playground</a>
      <label for="namespace">Namespace</label>
      <select id="namespace" value=${route.ns} onChange=${(e: Event) => go({ ...route, ns: (e.target as HTMLSelectElement).value, obj: undefined })}>
        <option value="">all namespaces</option>
        ${[...new Set([...namespaces, route.ns].filter((n) => n !== ''))].sort().map((n) => html`<option value=${n}>${n}</option>`)}
      </select>
    </header>
    <div class="panes">
      ${kinds === undefined ? html`<p>Loading kinds…</p>` : typeof kinds === 'string' ? html`<p class="error" role="alert">${kinds}</p>` : html`<${KindList} kinds=${kinds} counts=${counts} current=${route.kind} onPick=${(k: Kind) => go({ ns: route.ns, kind: kindKey(k) })} />`}
      <main>
        ${kind ? html`<${ObjectTable} kind=${kind} namespace=${route.ns} selected=${route.obj} onOpen=${(o: ObjectRef) => go({ ...route, obj: o })} />` : html`<p class="muted">Choose a kind.</p>`}
        ${kind && route.obj ? html`<${ObjectView} key=${`${kindKey(kind)}/${route.obj.namespace ?? ''}/${route.obj.name}`} kind=${kind} ref=${route.obj} onClose=${() => go({ ...route, obj: undefined })} />` : ''}
      </main>
    </div>
  </div>`;
}

render(html`<${App} />`, document.getElementById('app')!);
