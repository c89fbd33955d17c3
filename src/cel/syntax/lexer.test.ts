/**
 * The lexer against the ANTLR grammar's rules: longest match with fallback to the longest accepted
 * prefix, keyword tokens, every literal form, and `token recognition error` texts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Lexer, T, codePoints } from './lexer.ts';

function lex(src: string): { tokens: string[]; errors: string[] } {
  const errors: string[] = [];
  const lx = new Lexer(src, codePoints(src), (off, msg) => errors.push(`${off}:${msg}`));
  const tokens: string[] = [];
  for (;;) {
    const t = lx.next();
    if (t.type === T.EOF) break;
    tokens.push(`${T[t.type]}(${t.text})@${t.start}`);
  }
  return { tokens, errors };
}

const cases: [string, string[], string[]?][] = [
  ['a.b', ['IDENTIFIER(a)@0', 'DOT(.)@1', 'IDENTIFIER(b)@2']],
  ['1.', ['NUM_INT(1)@0', 'DOT(.)@1']],
  ['1.5e', ['NUM_FLOAT(1.5)@0', 'IDENTIFIER(e)@3']],
  ['1e+5 2E-3 .5 .5e1 3.', ['NUM_FLOAT(1e+5)@0', 'NUM_FLOAT(2E-3)@5', 'NUM_FLOAT(.5)@10', 'NUM_FLOAT(.5e1)@13', 'NUM_INT(3)@18', 'DOT(.)@19']],
  ['0x1F 0x1fu 0X1 0x', ['NUM_INT(0x1F)@0', 'NUM_UINT(0x1fu)@5', 'NUM_INT(0)@11', 'IDENTIFIER(X1)@12', 'NUM_INT(0)@15', 'IDENTIFIER(x)@16']],
  ['7u 7U 1.0u', ['NUM_UINT(7u)@0', 'NUM_UINT(7U)@3', 'NUM_FLOAT(1.0)@6', 'IDENTIFIER(u)@9']],
  ['in inx true null false_', ['IN(in)@0', 'IDENTIFIER(inx)@3', 'CEL_TRUE(true)@7', 'NUL(null)@12', 'IDENTIFIER(false_)@17']],
  ["r'a' R\"b\" b'c' B\"d\" br'e' Rb'f'", ["STRING(r'a')@0", 'STRING(R"b")@5', "BYTES(b'c')@10", 'BYTES(B"d")@15', "BYTES(br'e')@20", 'IDENTIFIER(Rb)@26', "STRING('f')@28"]],
  ["'''a'b''' \"\"\"x\n\"\"\"", ["STRING('''a'b''')@0", 'STRING("""x\n""")@10']],
  ["'' \"\"", ["STRING('')@0", 'STRING("")@3']],
  ["'\\x41\\101\\u0041\\U00000041\\n\\`'", ["STRING('\\x41\\101\\u0041\\U00000041\\n\\`')@0"]],
  ['`a b.c-d/e`', ['ESC_IDENTIFIER(`a b.c-d/e`)@0']],
  ['a // c\n|| b', ['IDENTIFIER(a)@0', 'LOGICAL_OR(||)@7', 'IDENTIFIER(b)@10']],
  ['<= < >= > == != && || ! - ? : + * / %', ['LESS_EQUALS(<=)@0', 'LESS(<)@3', 'GREATER_EQUALS(>=)@5', 'GREATER(>)@8',
    'EQUALS(==)@10', 'NOT_EQUALS(!=)@13', 'LOGICAL_AND(&&)@16', 'LOGICAL_OR(||)@19', 'EXCLAM(!)@22', 'MINUS(-)@24',
    'QUESTIONMARK(?)@26', 'COLON(:)@28', 'PLUS(+)@30', 'STAR(*)@32', 'SLASH(/)@34', 'PERCENT(%)@36']],
  // errors: the text up to and including the offending character, which is skipped
  ['a | b', ['IDENTIFIER(a)@0', 'IDENTIFIER(b)@4'], ["2:token recognition error at: '| '"]],
  ['a = b', ['IDENTIFIER(a)@0', 'IDENTIFIER(b)@4'], ["2:token recognition error at: '= '"]],
  ['a &', ['IDENTIFIER(a)@0'], ["2:token recognition error at: '&'"]],
  ["'ab\ncd'", ['IDENTIFIER(cd)@4'], ["0:token recognition error at: ''ab\\n'", "6:token recognition error at: '''"]],
  ["'\\q'", [], ["0:token recognition error at: ''\\q'", "3:token recognition error at: '''"]],
  ["'''abc", ["STRING('')@0"], ["2:token recognition error at: ''abc'"]],
  ["r'abc", ['IDENTIFIER(r)@0'], ["1:token recognition error at: ''abc'"]],
  ['`a$b`', ['IDENTIFIER(b)@3'], ["0:token recognition error at: '`a$'", "4:token recognition error at: '`'"]],
  ['``', [], ["0:token recognition error at: '``'"]],
  ['é😀#', [], ["0:token recognition error at: 'é'", "1:token recognition error at: '😀'", "2:token recognition error at: '#'"]],
];

for (const [src, tokens, errors = []] of cases) {
  test(`lex ${JSON.stringify(src)}`, () => {
    const got = lex(src);
    assert.deepEqual(got.tokens, tokens);
    assert.deepEqual(got.errors, errors);
  });
}
