// String format checkers against the cases of kube-openapi's strfmt tests (default_test.go,
// date_test.go, time_test.go, duration_test.go, kubernetes-extensions_test.go at kube-openapi
// d427ff9e, Apache-2.0), as data: [format, value, valid].
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { formatCheckers, matchesDateTimeASCII, normalizeFormat, rxDateTimeASCII } from './formats.ts';
import { Tally } from '../vectors.ts';

const V = true;
const X = false;
const r = (s: string, n: number) => s.repeat(n);

const emails = ['blah@gmail.com', 'test@d.verylongtoplevel', 'email+tag@gmail.com', '" "@example.com', '"Abc\\@def"@example.com', '"Fred Bloggs"@example.com', '"Joe\\\\Blow"@example.com', '"Abc@def"@example.com', 'customer/department=shipping@example.com', '$A12345@example.com', '!def!xyz%abc@example.com', '_somename@example.com', "!#$%&'*+-/=?^_`{}|~@example.com", "Miles.O'Brian@example.com", 'postmaster@☁→❄→☃→☀→☺→☂→☹→✝.ws', 'root@localhost', 'john@com', 'api@piston.ninja'];
const badHostnames = ['somewhere.com!', 'user@email.domain', '1.1.1.1', r('a', 256), ['x', 'y', r('a', 64)].join('.'), 'www.example-.org', 'www.--example.org', '-www.example.org', 'www-.example.org', 'www.d-.org', 'www.-d.org', 'www-', '-www', 'www.ex ample.org', '_www.example.org', 'www.ex;ample.org', 'www.example_underscored.org', 'www.詹姆斯.x', 'a.b.c.d', '-xyz', 'xyz-', 'x.', 'a.b.c.dot-', 'a.b.c.é;ö'];
const goodHostnames = ['somewhere.com', '888.com', 'a.com', 'a.b.com', 'a.b.c.com', 'a.b.c.d.com', 'a.b.c.d.e.com', '1.com', '1.2.com', '1.2.3.com', '1.2.3.4.com', '99.domain.com', '99.99.domain.com', '1wwworg.example.com', '1000wwworg.example.com', 'xn--bcher-kva.example.com', 'xn-80ak6aa92e.co', 'xn-80ak6aa92e.com', 'xn--ls8h.la', '☁→❄→☃→☀→☺→☂→☹→✝.ws', 'www.example.onion', 'www.example.ôlà', 'ôlà.ôlà', 'ôlà.ôlà.ôlà', 'ex$ample', 'localhost', 'example', 'x', 'x-y', 'a.b.c.dot', 'www.example.org', 'a.b.c.d.e.f.g.dot', 'ex=ample.com', '<foo>', 'www.example-hyphenated.org', 'www.詹姆斯.org', 'www.élégigôö.org', 'www.詹姆斯.london'];
const goodShort = ['a', 'ab', 'abc', 'a1', 'a-1', 'a--1--2--b', '0', '01', '012', '1a', '1-a', '1--a--b--2', r('a', 63)];
const badShort = ['', 'A', 'ABC', 'aBc', 'A1', 'A-1', '1-A', '-', '-a', '-1', '_', 'a_', '_a', 'a_b', '1_', '_1', '1_2', '.', 'a.', '.a', 'a.b', '1.', '.1', '1.2', ' ', 'a ', ' a', 'a b', '1 ', ' 1', '1 2', r('a', 64), 'a-', '1-'];
const goodLong = ['a', 'ab', 'abc', 'a1', 'a-1', 'a--1--2--b', '0', '01', '012', '1a', '1-a', '1--a--b--2', 'a.a', 'ab.a', 'abc.a', 'a1.a', 'a-1.a', 'a--1--2--b.a', 'a.1', 'ab.1', 'abc.1', 'a1.1', 'a-1.1', 'a--1--2--b.1', '0.a', '01.a', '012.a', '1a.a', '1-a.a', '0.1', '01.1', '012.1', '1a.1', '1-a.1', '1--a--b--2.1', 'a.b.c.d.e', 'aa.bb.cc.dd.ee', '1.2.3.4.5', '11.22.33.44.55', r('a', 253)];
const badLong = ['', 'A', 'ABC', 'aBc', 'A1', 'A-1', '1-A', '-', '-a', '-1', '_', 'a_', '_a', 'a_b', '1_', '_1', '1_2', '.', 'a.', '.a', 'a..b', '1.', '.1', '1..2', ' ', 'a ', ' a', 'a b', '1 ', ' 1', '1 2', 'A.a', 'aB.a', 'ab.A', 'A1.a', 'a1.A', 'A.1', 'aB.1', 'A1.1', '1A.1', '0.A', '01.A', '012.A', '1A.a', '1a.A', 'A.B.C.D.E', 'AA.BB.CC.DD.EE', 'a.B.c.d.e', 'aa.bB.cc.dd.ee', 'a@b', 'a,b', 'a_b', 'a;b', 'a:b', 'a%b', 'a?b', 'a$b', r('a', 254), 'a-', '1-'];

const cases: [string, string, boolean][] = [
  ['uri', 'http://somewhere.com', V],
  ['uri', 'http://somewhereelse.com', V],
  ['uri', 'somewhere.com', X],
  ...emails.map((e): [string, string, boolean] => ['email', e, V]),
  ['email', 'somebody@somewhere.com', V],
  ['email', 'somebody@somewhere@com', X],
  ...goodHostnames.map((h): [string, string, boolean] => ['hostname', h, V]),
  ...badHostnames.map((h): [string, string, boolean] => ['hostname', h, X]),
  ['ipv4', '127.0.0.1', V],
  ['ipv4', '192.168.1.1', V],
  ['ipv4', '192.168.1.01', V],
  ['ipv4', '198.168.254.2.2', X],
  ['ipv6', '::1', V],
  ['ipv6', '::2', V],
  ['ipv6', '127.0.0.1', X],
  ['cidr', '192.168.254.1/24', V],
  ['cidr', '192.0.2.1/24', V],
  ['cidr', '192.0.02.1/24', V],
  ['cidr', '2001:db8:a0b:12f0::1/32', V],
  ['cidr', '198.168.254.2', X],
  ['cidr', '2001:db8:a0b:12f0::1', X],
  ['mac', '01:02:03:04:05:06', V],
  ['mac', '06:05:04:03:02:01', V],
  ['mac', '01:02:03:04:05', X],
  ['uuid3', 'bcd02e22-68f0-3046-a512-327cca9def8f', V],
  ['uuid3', 'not-a-uuid', X],
  ['uuid4', 'f1f2e7c2-7a5e-4a47-9e8f-7d0d0b1a2c3d', V],
  ['uuid4', 'not-a-uuid', X],
  ['uuid5', 'a9a3ee1e-94b7-5c4b-a0b2-b6b2a4a6d0e8', V],
  ['uuid5', 'not-a-uuid', X],
  ['uuid', 'a9a3ee1e-94b7-5c4b-a0b2-b6b2a4a6d0e8', V],
  ['uuid', 'not-a-uuid', X],
  ['isbn', '0321751043', V],
  ['isbn', '836217463', X],
  ['isbn10', '0321751043', V],
  ['isbn10', '836217463', X],
  ['isbn13', '978-0321751041', V],
  ['isbn13', '978-0321751042', X],
  ['hexcolor', '#FFFFFF', V],
  ['hexcolor', '#000000', V],
  ['hexcolor', '#fffffffz', X],
  ['rgbcolor', 'rgb(255,255,255)', V],
  ['rgbcolor', 'rgb(0,0,0)', V],
  ['rgbcolor', 'rgb(300,0,0)', X],
  ['ssn', '111-11-1111', V],
  ['ssn', '999 99 9999', V],
  ['ssn', '999 99 999', X],
  ['creditcard', '4111-1111-1111-1111', V],
  ['creditcard', '4012-8888-8888-1881', V],
  ['creditcard', '9999-9999-9999-999', X],
  ['password', 'super secret!!!', V],
  ['password', 'even more secret', V],
  ['byte', Buffer.from('This is a byte array with unprintable chars, but it also isn').toString('base64url'), V],
  ['byte', 'ZWxpemFiZXRocG9zZXk', X],
  ['date', '2017-12-22', V],
  ['date', '2017-1-1', X],
  ['date', '17-13-22', X],
  ['date', '2017-02-29', X],
  ['date', '1900-02-29', X],
  ['date', '2100-02-29', X],
  ['date', '2000-02-29', V],
  ['date', '2400-02-29', V],
  ['date', '2017-13-22', X],
  ['date', '2017-12-32', X],
  ['date', '20171-12-32', X],
  ['date', 'YYYY-MM-DD', X],
  ['date', '20-17-2017', X],
  ['date', '2017-12-22T01:02:03Z', X],
  ['date-time', '2014-12-15T08:00:00.000Z', V],
  ['date-time', '2011-08-18T19:03:37.000+01:00', V],
  ['date-time', '2014-12-15T19:30:20.000Z', V],
  ['date-time', '0001-01-01T00:00:00.000Z', V],
  ['date-time', '1970-01-01T00:00:00.000Z', V],
  ['date-time', 'zor', X],
  ['date-time', 'zorg', X],
  ['date-time', 'zorgTx', X],
  ['date-time', '1972-12-31Tx', X],
  ['date-time', '1972-12-31T24:40:00.000Z', X],
  ['date-time', '1972-12-31T23:63:00.000Z', X],
  ['date-time', '1972-12-31T23:59:60.000Z', X],
  ...['1ns', '1us', '1µs', '1ms', '1s', '1m', '1h', '1hr', '1d', '1w', '1wk', '1nanoseconds', '1  week'].map((d): [string, string, boolean] => ['duration', d, V]),
  ['duration', '45 weeekks', X],
  ['duration', '45 weeks', V],
  ['duration', '45 weekz', V],
  ['duration', '12 hours', V],
  ['duration', '12 minutes', V],
  ['duration', '12 phours', X],
  ...goodShort.map((s): [string, string, boolean] => ['k8s-short-name', s, V]),
  ...badShort.map((s): [string, string, boolean] => ['k8s-short-name', s, X]),
  ...goodLong.map((s): [string, string, boolean] => ['k8s-long-name', s, V]),
  ...badLong.map((s): [string, string, boolean] => ['k8s-long-name', s, X]),
];

const tally = new Tally('kube-openapi strfmt cases');
after(() => console.log(tally.summary()));

for (const [f, s, ok] of cases) {
  test(`format ${f}: ${JSON.stringify(s.length > 40 ? s.slice(0, 40) + '…' : s)} is ${ok ? 'valid' : 'invalid'}`, () => {
    try {
      assert.equal(formatCheckers.get(normalizeFormat(f))!(s), ok);
      tally.passed++;
    } catch (e) {
      tally.failed++;
      throw e;
    }
  });
}

test('every format a compatibility version supports has a checker (TestRegistryFormats)', async () => {
  const { supportedFormatsAt } = await import('./formats.ts');
  for (const f of supportedFormatsAt('1.99')) assert.ok(formatCheckers.has(f), f);
  assert.ok(supportedFormatsAt('1.34').has('k8sshortname'));
  assert.ok(!supportedFormatsAt('1.33').has('k8slongname'));
  assert.ok(supportedFormatsAt('1.0').has('datetime'));
});

test('date-time: the native patterns accept exactly what strfmt.IsDateTime does (split on t, RE2 time pattern)', async () => {
  const { compileRegex } = await import('../../cel/index.ts');
  const { isDate, isDateTime } = await import('./formats.ts');
  // strfmt.IsDateTime, transcribed with the RE2 engine.
  const rx = compileRegex('^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$');
  const reference = (s: string): boolean => {
    if (s.length < 4) return false;
    const parts = s.toLowerCase().split('t');
    if (parts.length < 2 || !isDate(parts[0]!)) return false;
    const m = rx.find(parts[1]!);
    return m !== undefined && m.groups[0]! <= '23' && m.groups[1]! <= '59' && m.groups[2]! <= '59';
  };
  const dates = ['2025-03-01', '2024-02-29', '2023-02-29', '2025-13-01', '2025-00-10', '2025-04-31', '0000-01-01', '25-03-01', '2025-3-01'];
  const seps = ['T', 't', ' ', 'x', ''];
  const times = ['10:00:00', '23:59:59', '24:00:00', '10:60:00', '10:00:60', '1:00:00', '10:00', '00:00:00'];
  const fracs = ['', '.5', '.123456789', ',5', 'x5', 'é5', 'İ5', '😀5', '\n5', 't5', 'T5', '.', '5'];
  const zones = ['Z', 'z', '+01:00', '-23:59', '+1:00', '', 'Zt', 'ZT', 'Zt00', '+01:00tx', 'ZZ', 'Z\n'];
  let n = 0;
  let accepted = 0;
  for (const d of dates) {
    for (const sep of seps) {
      for (const t of times) {
        for (const f of fracs) {
          for (const z of zones) {
            const s = d + sep + t + f + z;
            const want = reference(s);
            assert.equal(isDateTime(s), want, JSON.stringify(s));
            n++;
            if (want) accepted++;
          }
        }
      }
    }
  }
  for (const s of ['', 'T', 'tttt', '2025-03-01T', 'İ2025-03-01T10:00:00Z', '2025-03-01İT10:00:00Z']) assert.equal(isDateTime(s), reference(s), JSON.stringify(s));
  assert.ok(n > 30000 && accepted > 1000, `${n} strings, ${accepted} accepted`);
});

test('matchesDateTimeASCII accepts exactly what its pattern accepts', () => {
  // Strings built around the date-time shape, with random characters spliced in where the
  // pattern branches (fraction separator, zone, trailing part).
  let seed = 7;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const alphabet = '0123456789-:+tTzZ.,\n x\u00e9';
  const pieces = ['2025-03-01', 'T', 't', '10:00:00', '.5', '.123', '+01:00', '-05:30', 'Z', 'z', 'Tfoo', '1', ':', '-'];
  let accepted = 0;
  for (let i = 0; i < 50_000; i++) {
    let s = '';
    const parts = 2 + rnd(6);
    for (let p = 0; p < parts; p++) s += rnd(3) === 0 ? alphabet[rnd(alphabet.length)]! : pieces[rnd(pieces.length)]!;
    if (rnd(2) === 0) s = '2025-03-01T10:00:00' + s;
    const want = rxDateTimeASCII.test(s);
    assert.equal(matchesDateTimeASCII(s), want, JSON.stringify(s));
    if (want) accepted++;
  }
  assert.ok(accepted > 2000, `${accepted} accepted`);
});
