/**
 * The protobuf wire format as gogo-protobuf's generated code for Kubernetes reads and writes it:
 * varints with `proto: integer overflow` past ten bytes, lengths checked against the buffer
 * (`unexpected EOF`, `proto: negative length found during unmarshaling`), unknown fields skipped
 * as skipGenerated skips them, and a writer that emits fields in the order it is given them.
 */

/** An error of the decoder, worded as the generated Unmarshal methods word it. */
export class ProtoError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtoError';
  }
}

export const errUnexpectedEOF = 'unexpected EOF';
export const errIntOverflow = 'proto: integer overflow';
export const errInvalidLength = 'proto: negative length found during unmarshaling';

const two32 = 4294967296;

/** A cursor over one message's bytes. */
export class Reader {
  pos = 0;
  /** The two 32-bit halves of the last varint read by `varint64`. */
  lo = 0;
  hi = 0;
  constructor(readonly buf: Uint8Array) {}

  eof(): boolean {
    return this.pos >= this.buf.length;
  }

  /** Reads a varint into `lo`/`hi` (its low 64 bits, as Go's `x |= uint64(b&0x7F) << shift`). */
  varint64(): void {
    let lo = 0;
    let hi = 0;
    const buf = this.buf;
    for (let shift = 0; ; shift += 7) {
      if (shift >= 64) throw new ProtoError(errIntOverflow);
      if (this.pos >= buf.length) throw new ProtoError(errUnexpectedEOF);
      const b = buf[this.pos++]!;
      const bits = b & 0x7f;
      if (shift < 28) lo |= bits << shift;
      else if (shift === 28) {
        lo |= (bits & 0x0f) << 28;
        hi |= bits >>> 4;
      } else if (shift < 64) hi |= bits << (shift - 32);
      if (b < 0x80) break;
    }
    this.lo = lo >>> 0;
    this.hi = hi >>> 0;
  }

  /** A varint as an unsigned number (exact below 2^53). */
  uint(): number {
    this.varint64();
    return this.hi * two32 + this.lo;
  }

  /** A varint as Go's int64 (two's complement; exact within ±2^53). */
  int64(): number {
    this.varint64();
    return (this.hi | 0) * two32 + this.lo;
  }

  /** A varint as Go's int64, exactly. */
  int64Big(): bigint {
    this.varint64();
    return BigInt.asIntN(64, (BigInt(this.hi) << 32n) | BigInt(this.lo));
  }

  /** A varint truncated to Go's int32. */
  int32(): number {
    this.varint64();
    return this.lo | 0;
  }

  /** A varint truncated to Go's uint32. */
  uint32(): number {
    this.varint64();
    return this.lo;
  }

  bool(): boolean {
    this.varint64();
    return this.lo !== 0 || this.hi !== 0;
  }

  /** A tag: the field number (as Go's int32(wire >> 3)) and the wire type. */
  tag(): { field: number; wire: number; raw: number } {
    this.varint64();
    return { field: ((this.hi << 29) | (this.lo >>> 3)) | 0, wire: this.lo & 7, raw: this.hi * two32 + this.lo };
  }

  /** A length-delimited value's bytes (a view, not a copy). */
  bytes(): Uint8Array {
    this.varint64();
    if ((this.hi & 0x80000000) !== 0) throw new ProtoError(errInvalidLength);
    const len = this.hi * two32 + this.lo;
    const end = this.pos + len;
    if (end > this.buf.length) throw new ProtoError(errUnexpectedEOF);
    const b = this.buf.subarray(this.pos, end);
    this.pos = end;
    return b;
  }

  string(): string {
    const b = this.bytes();
    return b.length === 0 ? '' : Buffer.from(b.buffer, b.byteOffset, b.length).toString('utf8');
  }

  fixed64(): DataView {
    if (this.pos + 8 > this.buf.length) throw new ProtoError(errUnexpectedEOF);
    const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8);
    this.pos += 8;
    return v;
  }

  fixed32(): DataView {
    if (this.pos + 4 > this.buf.length) throw new ProtoError(errUnexpectedEOF);
    const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 4);
    this.pos += 4;
    return v;
  }

  /**
   * Skips the field whose tag started at `start` (skipGenerated): groups (wire type 3) are
   * skipped to their end with a depth counter rather than recursion, so nesting costs no stack.
   */
  skip(start: number): void {
    this.pos = start;
    let depth = 0;
    for (;;) {
      const { wire } = this.tag();
      switch (wire) {
        case 0:
          this.varint64();
          break;
        case 1:
          this.pos += 8;
          break;
        case 2:
          this.bytes();
          break;
        case 3:
          depth++;
          break;
        case 4:
          // An end-group tag ends the group skipping started; at top level it ends the skip.
          if (depth > 0) depth--;
          break;
        case 5:
          this.pos += 4;
          break;
        default:
          throw new ProtoError(`proto: illegal wireType ${wire}`);
      }
      if (depth === 0) break;
    }
    if (this.pos > this.buf.length) throw new ProtoError(errUnexpectedEOF);
  }
}

/** A growing byte buffer for encoding; fields are written in the order they are given. */
export class Writer {
  private buf = new Uint8Array(256);
  len = 0;

  private ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }

  /** An unsigned varint of a non-negative number below 2^53. */
  uint(v: number): void {
    this.ensure(10);
    while (v > 0x7f) {
      this.buf[this.len++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buf[this.len++] = v;
  }

  /** A varint of Go's int64 (negative values take ten bytes, as two's complement). */
  int64(v: number | bigint): void {
    if (typeof v === 'number' && v >= 0) return this.uint(v);
    let u = BigInt.asUintN(64, BigInt(v));
    this.ensure(10);
    while (u > 0x7fn) {
      this.buf[this.len++] = Number(u & 0x7fn) | 0x80;
      u >>= 7n;
    }
    this.buf[this.len++] = Number(u);
  }

  tag(field: number, wire: number): void {
    this.uint(field * 8 + wire);
  }

  raw(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }

  /** A length-delimited field. */
  bytesField(field: number, b: Uint8Array): void {
    this.tag(field, 2);
    this.uint(b.length);
    this.raw(b);
  }

  stringField(field: number, s: string): void {
    this.bytesField(field, Buffer.from(s, 'utf8'));
  }

  double(v: number): void {
    this.ensure(8);
    new DataView(this.buf.buffer, this.len, 8).setFloat64(0, v, true);
    this.len += 8;
  }

  float(v: number): void {
    this.ensure(4);
    new DataView(this.buf.buffer, this.len, 4).setFloat32(0, v, true);
    this.len += 4;
  }

  fixed32(v: number): void {
    this.ensure(4);
    new DataView(this.buf.buffer, this.len, 4).setUint32(0, v >>> 0, true);
    this.len += 4;
  }

  fixed64(v: bigint): void {
    this.ensure(8);
    new DataView(this.buf.buffer, this.len, 8).setBigUint64(0, BigInt.asUintN(64, v), true);
    this.len += 8;
  }

  finish(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }
}
