/**
 * The debug printer's Go formatting: %v for doubles, strconv.Quote for strings and bytes, and the
 * tree layout of cel-go's common/debug.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatGoFloat, goQuote, goQuoteBytes, toDebugString } from './debug.ts';
import { parse } from './parser.ts';

test("doubles print as Go's %v", () => {
  const cases: [number, string][] = [
    [23.39, '23.39'], [-4.1, '-4.1'], [1, '1'], [1e20, '100000000000000000000'], [1e21, '1e+21'],
    [0.0001, '0.0001'], [0.00001, '1e-05'], [1.5e-300, '1.5e-300'], [123456789.125, '123456789.125'],
    [Infinity, '+Inf'], [-Infinity, '-Inf'], [NaN, 'NaN'], [-0, '-0'],
  ];
  for (const [v, want] of cases) assert.equal(formatGoFloat(v), want, String(v));
});

test("strings and bytes quote as Go's strconv.Quote", () => {
  assert.equal(goQuote('a"b\\c'), '"a\\"b\\\\c"');
  assert.equal(goQuote('\t\n\x07\x7f\x01'), '"\\t\\n\\a\\x7f\\x01"');
  assert.equal(goQuote('é😀 \u00a0\u00ad'), '"é😀 \\u00a0\\u00ad"');
  assert.equal(goQuoteBytes(Uint8Array.from([0x61, 0xff, 0xc3, 0xa9, 0xe2, 0x82])), '"a\\xffé\\xe2\\x82"');
});

test('tree layout', () => {
  const p = parse('{"a": [1, 2u], x.y: T{f: 1.5}}.exists(k, k != b"\\x00")').parsed!;
  assert.equal(
    toDebugString(p.expr),
    [
      '__comprehension__(',
      '  // Variable',
      '  k,',
      '  // Target',
      '  {',
      '    "a":[',
      '      1,',
      '      2u',
      '    ],',
      '    x.y:T{',
      '      f:1.5',
      '    }',
      '  },',
      '  // Accumulator',
      '  @result,',
      '  // Init',
      '  false,',
      '  // LoopCondition',
      '  @not_strictly_false(',
      '    !_(',
      '      @result',
      '    )',
      '  ),',
      '  // LoopStep',
      '  _||_(',
      '    @result,',
      '    _!=_(',
      '      k,',
      '      b"\\x00"',
      '    )',
      '  ),',
      '  // Result',
      '  @result)',
    ].join('\n'),
  );
});
