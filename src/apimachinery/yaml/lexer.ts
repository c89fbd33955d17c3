/**
 * The `yaml` package's lexer with libyaml's rule for quoted scalars: a single- or double-quoted
 * scalar runs to its closing quote over any number of lines, whatever their indentation (libyaml's
 * scanner checks only for a document marker at the start of a line). The stock lexer ends the
 * scalar at the first line indented no deeper than its parent, so `key: "one\ntwo"`, which kubectl
 * reads, would be a syntax error.
 */
import { Lexer } from 'yaml';

/** The stock lexer's internals this override uses (they are not in its typings). */
interface LexerState {
  buffer: string;
  pos: number;
  atEnd: boolean;
  flowLevel: number;
  charAt(n: number): string;
  setNext(state: string): string;
  pushToIndex(i: number, allowEmpty: boolean): Generator<string, number>;
}

/** `---` or `...` followed by a blank or the end: a document marker at the start of a line. */
function documentMarkerAt(buffer: string, i: number): boolean {
  const three = buffer.substr(i, 3);
  if (three !== '---' && three !== '...') return false;
  const next = buffer[i + 3];
  return next === undefined || next === ' ' || next === '\t' || next === '\n' || next === '\r';
}

/** The stock parseQuotedScalar with only a document marker ending a scalar's lines early. */
function* parseQuotedScalar(this: LexerState): Generator<string, string> {
  const quote = this.charAt(0);
  let end = this.buffer.indexOf(quote, this.pos + 1);
  if (quote === "'") {
    while (end !== -1 && this.buffer[end + 1] === "'") end = this.buffer.indexOf("'", end + 2);
  } else {
    while (end !== -1) {
      let n = 0;
      while (this.buffer[end - 1 - n] === '\\') n += 1;
      if (n % 2 === 0) break;
      end = this.buffer.indexOf('"', end + 1);
    }
  }
  // Only a document marker inside the quotes ends the scalar early (and is then an error).
  const within = end === -1 ? this.buffer : this.buffer.substring(0, end);
  for (let nl = within.indexOf('\n', this.pos); nl !== -1; nl = within.indexOf('\n', nl + 1)) {
    if (documentMarkerAt(this.buffer, nl + 1)) {
      end = nl - (within[nl - 1] === '\r' ? 2 : 1);
      break;
    }
  }
  if (end === -1) {
    if (!this.atEnd) return this.setNext('quoted-scalar');
    end = this.buffer.length;
  }
  yield* this.pushToIndex(end + 1, false);
  return this.flowLevel ? 'flow' : 'doc';
}

/** A lexer for the `yaml` package's Parser that reads quoted scalars as libyaml does. */
export function kubeLexer(): Lexer {
  const lexer = new Lexer();
  // The method is private in the typings; the override keeps the stock contract (tokens out,
  // next state returned).
  (lexer as unknown as { parseQuotedScalar: typeof parseQuotedScalar }).parseQuotedScalar = parseQuotedScalar;
  return lexer;
}
