/**
 * What the browser bundle has in place of the Node built-ins that shared modules import: the
 * schema layer keys its compile caches by `createHash(...).update(...).digest()` (here the keyed
 * text itself, which is as unique as a hash and needs no crypto), and modules the bundle never
 * runs (conformance files, vectors) name fs, path and url at load time only.
 */

class TextKey {
  private parts: string[] = [];
  update(s: string | Uint8Array): this {
    this.parts.push(typeof s === 'string' ? s : new TextDecoder().decode(s));
    return this;
  }
  digest(): string {
    return this.parts.join('\u0001');
  }
}

export function createHash(_algorithm: string): TextKey {
  return new TextKey();
}

function unavailable(name: string): never {
  throw new Error(`${name} is not available in a browser`);
}

export function readFileSync(path: string): never {
  return unavailable(`reading ${path}`);
}

export function readdirSync(path: string): never {
  return unavailable(`listing ${path}`);
}

export function join(...parts: string[]): string {
  return parts.join('/');
}

export function dirname(p: string): string {
  return p.slice(0, Math.max(0, p.lastIndexOf('/')));
}

export function fileURLToPath(u: string | URL): string {
  return String(u).replace(/^file:\/\//, '');
}

export function pathToFileURL(p: string): URL {
  return new URL(`file://${p}`);
}

export function existsSync(path: string): never {
  return unavailable(`looking for ${path}`);
}
