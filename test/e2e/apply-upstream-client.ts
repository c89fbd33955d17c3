/**
 * HTTP helpers for the suites ported from kube-apiserver's server-side apply integration tests
 * (kubernetes/kubernetes test/integration/apiserver/apply): raw requests as client-go's
 * RESTClient sends them, a fresh namespace per upstream test (upstream starts a server per test,
 * here one server serves a whole file, so each test gets a namespace of its own and keeps
 * upstream's object names), and managedFields without their times.
 */
import assert from 'node:assert/strict';
import type { ServerProcess } from './harness.ts';

export const APPLY = 'application/apply-patch+yaml';
export const MERGE = 'application/merge-patch+json';
export const STRATEGIC = 'application/strategic-merge-patch+json';
export const JSONPATCH = 'application/json-patch+json';

export interface Answer {
  status: number;
  json: any;
  headers: Headers;
}

/** One request; the body is sent as given (a string) or JSON-encoded. */
export async function request(s: ServerProcess, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Answer> {
  const init: RequestInit = { method, headers: { 'content-type': contentType, accept: 'application/json' } };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const res = await s.fetch(`${s.url}${path}`, init);
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json, headers: res.headers };
}

/** Asserts a 2xx answer and returns its object. */
export async function ok(p: Promise<Answer>): Promise<any> {
  const r = await p;
  assert.ok(r.status >= 200 && r.status < 300, `${r.status}: ${JSON.stringify(r.json)}`);
  return r.json;
}

let namespaces = 0;

/** Creates a namespace of its own for one upstream test and returns its name. */
export async function freshNamespace(s: ServerProcess, hint: string): Promise<string> {
  const name = `${hint.toLowerCase().replace(/[^a-z0-9]+/g, '-').slice(0, 50)}-${++namespaces}`;
  await ok(request(s, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }));
  return name;
}

/** managedFields entries without their times (which a test cannot know). */
export function withoutTimes(obj: any): any[] {
  return (obj.metadata.managedFields ?? []).map((e: any) => {
    const { time: _t, ...rest } = e;
    return rest;
  });
}

/** The managedFields entry of one manager (and operation, when given). */
export function entryOf(obj: any, manager: string, operation?: string): any {
  return (obj.metadata.managedFields ?? []).find((e: any) => e.manager === manager && (operation === undefined || e.operation === operation));
}
