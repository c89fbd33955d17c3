/**
 * Structural schemas built when first read. A CRD version's structural schema costs about as much
 * to build as the JSON it comes from takes to parse, and a server holding hundreds of CRDs should
 * not build them all before it answers: `deferStructural` hands out a stand-in that behaves as the
 * Structural in every way (a Proxy onto it, built on the first access), and `deferredSource` lets
 * the compile steps that only need to know what the JSON schema holds (does it have CEL rules?)
 * ask without building it.
 */
import type { Structural } from './structural.ts';
import type { JSONSchemaProps } from './types.ts';

interface Deferred {
  schema: JSONSchemaProps;
  resolve: () => Structural;
}

const sources = new WeakMap<object, Deferred>();

/**
 * A Structural that is `resolve()` once anything reads it (resolve is called at most once; if it
 * throws, every access throws the same). `schema` is the JSON schema it is built from.
 */
export function deferStructural(schema: JSONSchemaProps, resolve: () => Structural): Structural {
  let built: Structural | undefined;
  let failed: unknown;
  const real = (): Structural => {
    if (built !== undefined) return built;
    if (failed !== undefined) throw failed;
    try {
      return (built = resolve());
    } catch (e) {
      failed = e;
      throw e;
    }
  };
  const proxy = new Proxy({} as Structural, {
    get: (_t, k) => Reflect.get(real(), k),
    has: (_t, k) => Reflect.has(real(), k),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_t, k) => {
      const d = Reflect.getOwnPropertyDescriptor(real(), k);
      // The stand-in's own (empty) target must not contradict what is reported.
      return d === undefined ? undefined : { ...d, configurable: true };
    },
    set: (_t, k, v) => Reflect.set(real(), k, v),
    deleteProperty: (_t, k) => Reflect.deleteProperty(real(), k),
    defineProperty: (_t, k, d) => Reflect.defineProperty(real(), k, d),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
  sources.set(proxy, { schema, resolve: real });
  return proxy;
}

/** For a stand-in made by deferStructural: its JSON schema and the Structural (built on call). */
export function deferredSource(s: Structural | undefined): Deferred | undefined {
  return s === undefined ? undefined : sources.get(s);
}

/**
 * Whether newStructural(schema) would carry x-kubernetes-validations anywhere in its tree (the
 * nodes reached through properties, object-valued items and additionalProperties), read from the
 * JSON schema alone.
 */
export function hasRulesInJSON(s: JSONSchemaProps | null | undefined): boolean {
  if (s === null || s === undefined || typeof s !== 'object') return false;
  if ((s['x-kubernetes-validations']?.length ?? 0) > 0) return true;
  if (s.items !== null && typeof s.items === 'object' && !Array.isArray(s.items) && hasRulesInJSON(s.items)) return true;
  const ap = s.additionalProperties;
  if (ap !== null && typeof ap === 'object' && hasRulesInJSON(ap)) return true;
  for (const p of Object.values(s.properties ?? {})) if (hasRulesInJSON(p)) return true;
  return false;
}
