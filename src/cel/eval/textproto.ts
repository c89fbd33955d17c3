/**
 * A small reader for protobuf text format (as the cel-spec conformance files are written): nested
 * messages, scalar fields, repeated fields, `[a, b]` lists, adjacent string concatenation, C-style
 * escapes, `#` comments and `[type.url]` extension/Any field names. Field values are kept as
 * written (strings decoded to bytes, numbers and identifiers as their source text) because the
 * meaning of a scalar depends on the field's type, which only the caller knows.
 */

/** A text-format scalar: strings as raw bytes, everything else as its source token. */
export type TextScalar = { kind: 'string'; bytes: Uint8Array } | { kind: 'token'; text: string };
export type TextValue = TextScalar | TextMessage;
/** A message: field name -> values in order (every field may repeat). */
export type TextMessage = Map<string, TextValue[]>;

export class TextProtoError extends Error {}

/** Parses a whole text-format message. Throws TextProtoError on malformed input. */
export function parseTextProto(src: string): TextMessage {
  const p = new Reader(src);
  const m = p.fields('');
  if (p.peek() !== '') throw new TextProtoError(`unexpected ${p.peek()} at ${p.pos}`);
  return m;
}

class Reader {
  pos = 0;
  constructor(private readonly s: string) {}

  private skip(): void {
    for (;;) {
      const c = this.s[this.pos];
      if (c === undefined) return;
      if (c === '#') {
        while (this.pos < this.s.length && this.s[this.pos] !== '\n') this.pos++;
      } else if (c === ' ' || c === '\n' || c === '\t' || c === '\r') this.pos++;
      else return;
    }
  }

  peek(): string {
    this.skip();
    return this.s[this.pos] ?? '';
  }

  private expect(c: string): void {
    if (this.peek() !== c) throw new TextProtoError(`expected '${c}' at ${this.pos}, found '${this.peek()}'`);
    this.pos++;
  }

  fields(close: string): TextMessage {
    const m: TextMessage = new Map();
    for (;;) {
      const c = this.peek();
      if (c === close) return m;
      if (c === '') throw new TextProtoError('unexpected end of input');
      let name: string;
      if (c === '[') {
        const end = this.s.indexOf(']', this.pos);
        name = this.s.slice(this.pos, end + 1).replace(/\s+/g, '');
        this.pos = end + 1;
      } else name = this.ident();
      let vals: TextValue[];
      if (this.peek() === ':') {
        this.pos++;
        if (this.peek() === '[') {
          this.pos++;
          vals = [];
          while (this.peek() !== ']') {
            vals.push(this.value());
            if (this.peek() === ',') this.pos++;
          }
          this.pos++;
        } else vals = [this.value()];
      } else vals = [this.message()];
      const list = m.get(name);
      if (list) list.push(...vals);
      else m.set(name, vals);
      const sep = this.peek();
      if (sep === ',' || sep === ';') this.pos++;
    }
  }

  private message(): TextMessage {
    const open = this.peek();
    if (open !== '{' && open !== '<') throw new TextProtoError(`expected message at ${this.pos}`);
    this.pos++;
    const m = this.fields(open === '{' ? '}' : '>');
    this.pos++;
    return m;
  }

  private ident(): string {
    this.skip();
    const m = /[A-Za-z_][A-Za-z0-9_.]*/y;
    m.lastIndex = this.pos;
    const r = m.exec(this.s);
    if (!r) throw new TextProtoError(`expected a field name at ${this.pos}: ${this.s.slice(this.pos, this.pos + 20)}`);
    this.pos = m.lastIndex;
    return r[0];
  }

  private value(): TextValue {
    const c = this.peek();
    if (c === '{' || c === '<') return this.message();
    if (c === '"' || c === "'") {
      const parts: Uint8Array[] = [];
      while (this.peek() === '"' || this.peek() === "'") parts.push(this.string());
      const n = parts.reduce((a, b) => a + b.length, 0);
      const bytes = new Uint8Array(n);
      let o = 0;
      for (const p of parts) {
        bytes.set(p, o);
        o += p.length;
      }
      return { kind: 'string', bytes };
    }
    const m = /[-+]?[A-Za-z0-9_.+-]+/y;
    m.lastIndex = this.pos;
    const r = m.exec(this.s);
    if (!r) throw new TextProtoError(`expected a value at ${this.pos}`);
    this.pos = m.lastIndex;
    return { kind: 'token', text: r[0] };
  }

  private string(): Uint8Array {
    const q = this.s[this.pos++]!;
    const out: number[] = [];
    const enc = new TextEncoder();
    for (;;) {
      const c = this.s[this.pos++];
      if (c === undefined) throw new TextProtoError('unterminated string');
      if (c === q) break;
      if (c !== '\\') {
        const cp = this.s.codePointAt(this.pos - 1)!;
        if (cp > 0xffff) this.pos++;
        out.push(...enc.encode(String.fromCodePoint(cp)));
        continue;
      }
      const e = this.s[this.pos++]!;
      switch (e) {
        case 'n':
          out.push(10);
          break;
        case 't':
          out.push(9);
          break;
        case 'r':
          out.push(13);
          break;
        case 'a':
          out.push(7);
          break;
        case 'b':
          out.push(8);
          break;
        case 'f':
          out.push(12);
          break;
        case 'v':
          out.push(11);
          break;
        case '?':
          out.push(63);
          break;
        case 'x':
        case 'X': {
          const h = /[0-9a-fA-F]{1,2}/y;
          h.lastIndex = this.pos;
          const r = h.exec(this.s)!;
          this.pos = h.lastIndex;
          out.push(parseInt(r[0], 16));
          break;
        }
        case 'u':
        case 'U': {
          const len = e === 'u' ? 4 : 8;
          const cp = parseInt(this.s.slice(this.pos, this.pos + len), 16);
          this.pos += len;
          out.push(...enc.encode(String.fromCodePoint(cp)));
          break;
        }
        default:
          if (e >= '0' && e <= '7') {
            const o = /[0-7]{1,3}/y;
            o.lastIndex = this.pos - 1;
            const r = o.exec(this.s)!;
            this.pos = o.lastIndex;
            out.push(parseInt(r[0], 8) & 0xff);
          } else out.push(...enc.encode(e));
      }
    }
    return Uint8Array.from(out);
  }
}

/** The single value of a field (the last one written), or undefined. */
export function field(m: TextMessage, name: string): TextValue | undefined {
  const v = m.get(name);
  return v?.[v.length - 1];
}

/** A string field decoded as UTF-8. */
export function stringField(m: TextMessage, name: string): string | undefined {
  const v = field(m, name);
  if (v === undefined) return undefined;
  if (v instanceof Map) throw new TextProtoError(`field ${name} is a message`);
  return v.kind === 'string' ? new TextDecoder().decode(v.bytes) : v.text;
}

export function messageField(m: TextMessage, name: string): TextMessage | undefined {
  const v = field(m, name);
  return v instanceof Map ? v : undefined;
}

export function messages(m: TextMessage, name: string): TextMessage[] {
  return (m.get(name) ?? []).filter((v): v is TextMessage => v instanceof Map);
}
