/**
 * CSV records as Go's encoding/csv reads them with its defaults and FieldsPerRecord -1 (what
 * kube-apiserver's token file reader uses): comma-separated, empty lines skipped, `\r\n` read as
 * `\n`, double-quoted fields with `""` for a quote and newlines inside, and its errors
 * (`parse error on line 2, column 8: bare " in non-quoted field`).
 */

export class CSVParseError extends Error {}

function parseError(startLine: number, line: number, column: number, what: string): CSVParseError {
  const where = startLine !== line ? `record on line ${startLine}; parse error on line ${line}, column ${column}` : `parse error on line ${line}, column ${column}`;
  return new CSVParseError(`${where}: ${what}`);
}

const bareQuote = 'bare " in non-quoted field';
const quoteError = 'extraneous or missing " in quoted-field';

/** Every record of `text`; throws CSVParseError as encoding/csv's Reader.Read fails. */
export function readCSV(text: string): string[][] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const records: string[][] = [];
  let i = 0;
  while (i < lines.length) {
    if (lines[i] === '') {
      i++;
      continue;
    }
    const startLine = i + 1;
    const fields: string[] = [];
    let line = lines[i]!;
    let pos = 0;
    for (;;) {
      if (line[pos] !== '"') {
        // An unquoted field runs to the next comma; a quote inside it is an error.
        const end = line.indexOf(',', pos);
        const field = end < 0 ? line.slice(pos) : line.slice(pos, end);
        const q = field.indexOf('"');
        if (q >= 0) throw parseError(startLine, i + 1, pos + q + 1, bareQuote);
        fields.push(field);
        if (end < 0) break;
        pos = end + 1;
        continue;
      }
      // A quoted field, possibly over several lines.
      let value = '';
      pos++;
      for (;;) {
        const q = line.indexOf('"', pos);
        if (q < 0) {
          value += line.slice(pos);
          if (i + 1 >= lines.length) throw parseError(startLine, i + 1, line.length + 1, quoteError);
          value += '\n';
          line = lines[++i]!;
          pos = 0;
          continue;
        }
        value += line.slice(pos, q);
        const after = line[q + 1];
        if (after === '"') {
          value += '"';
          pos = q + 2;
          continue;
        }
        if (after === undefined || after === ',') {
          pos = q + 1;
          break;
        }
        throw parseError(startLine, i + 1, q + 1, quoteError);
      }
      fields.push(value);
      if (pos >= line.length) break;
      pos++;
    }
    records.push(fields);
    i++;
  }
  return records;
}
