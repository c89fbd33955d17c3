import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goJSONSyntaxError, JSONNumber, parseGoJSONText } from './go-json.ts';

// Messages of Go's encoding/json SyntaxError.
const cases: Array<[string, string | undefined]> = [
  ['{"a":[1,2.5e-3,true,false,null,"x\\u00e9"]}', undefined],
  ['  1  ', undefined],
  ['', 'unexpected end of JSON input'],
  ['   ', 'unexpected end of JSON input'],
  ['{', 'unexpected end of JSON input'],
  ['{"a"', 'unexpected end of JSON input'],
  ['x', "invalid character 'x' looking for beginning of value"],
  ['{a:1}', "invalid character 'a' looking for beginning of object key string"],
  ['{"a" 1}', "invalid character '1' after object key"],
  ['{"a":1 "b"}', "invalid character '\"' after object key:value pair"],
  ['[1 2]', "invalid character '2' after array element"],
  ['[1,]', "invalid character ']' looking for beginning of value"],
  ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
  ['1 2', "invalid character '2' after top-level value"],
  ['"a\tb"', "invalid character '\\t' in string literal"],
  ['"\\x"', "invalid character 'x' in string escape code"],
  ['"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
  ['-a', "invalid character 'a' in numeric literal"],
  ['1.e', "invalid character 'e' after decimal point in numeric literal"],
  ['1e+', "invalid character ' ' in exponent of numeric literal"],
  ['-', "invalid character ' ' in numeric literal"],
  ['"abc', 'unexpected end of JSON input'],
  ['1ex', "invalid character 'x' in exponent of numeric literal"],
  ['01', "invalid character '1' after top-level value"],
  ['tru', "invalid character ' ' in literal true (expecting 'e')"],
  ['trux', "invalid character 'x' in literal true (expecting 'e')"],
  ['nul1', "invalid character '1' in literal null (expecting 'l')"],
  ["'a'", "invalid character '\\'' looking for beginning of value"],
  ['é', "invalid character 'Ã' looking for beginning of value"],
];
for (const [input, want] of cases) {
  test(`syntax: ${JSON.stringify(input)}`, () => assert.equal(goJSONSyntaxError(input), want));
}

test('parseGoJSONText keeps number literals', () => {
  const r = parseGoJSONText('{"a":[1.0,-2e3],"b":"x"}');
  assert.equal(r.error, undefined);
  const v = r.value as { a: JSONNumber[]; b: string };
  assert.deepEqual(v.a.map((n) => n.text), ['1.0', '-2e3']);
  assert.equal(v.b, 'x');
  assert.equal(parseGoJSONText('{"__proto__":1}').error, undefined);
  assert.equal(Object.keys((parseGoJSONText('{"__proto__":1}') as { value: object }).value)[0], '__proto__');
});
