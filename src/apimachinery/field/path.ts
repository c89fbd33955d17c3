/**
 * Field paths as Kubernetes prints them in errors: `spec.ports[0].name`, `metadata.labels[app]`.
 * Immutable: child(), index() and key() return new paths.
 */
export class Path {
  private constructor(
    private readonly parent: Path | undefined,
    private readonly name: string,
    private readonly kind: 'root' | 'field' | 'index' | 'key',
  ) {}

  /** A root path; `new Path` is private so every path starts here. `Path.root()` is the empty path. */
  static root(name = ''): Path {
    return new Path(undefined, name, 'root');
  }

  /** NewPath(name, moreNames...) */
  static of(name: string, ...more: string[]): Path {
    let p = Path.root(name);
    for (const m of more) p = p.child(m);
    return p;
  }

  child(name: string, ...more: string[]): Path {
    let p: Path = new Path(this, name, 'field');
    for (const m of more) p = new Path(p, m, 'field');
    return p;
  }

  index(i: number): Path {
    return new Path(this, String(i), 'index');
  }

  key(k: string): Path {
    return new Path(this, k, 'key');
  }

  /** The path as Kubernetes prints it (field.Path.String()). */
  toString(): string {
    if (this.parent === undefined) return this.name;
    const parts: Path[] = [];
    for (let p: Path | undefined = this; p !== undefined; p = p.parent) parts.push(p);
    parts.reverse();
    let s = '';
    for (const p of parts) {
      if (p.kind === 'index' || p.kind === 'key') {
        s += `[${p.name}]`;
      } else if (p.kind === 'root') {
        s += p.name;
      } else {
        if (s.length > 0) s += '.';
        s += p.name;
      }
    }
    return s;
  }
}
