import { ExportError } from './errors.ts';

/** One CSV field: its text, and whether it was written in quotes (readExportAsJson types by that). */
export interface CsvField {
  text: string;
  quoted: boolean;
}

const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;
const QUOTE = 0x22;
const UNQUOTED_STOP = /[,\r\n"]/g;

/**
 * Streaming RFC 4180 reader (csv-parse is not a dependency): records of fields from text chunks that
 * may split anywhere, including inside a quoted field or a CRLF. Accepts CRLF, LF or CR line ends and
 * a leading BOM; a final line end does not make an empty record. Lenient where RFC 4180 forbids but
 * Excel writes (a stray `"` inside an unquoted field, text after a closing quote): kept as text.
 * An unterminated quoted field is `corrupt_file`.
 * @example for await (const rec of parseCsv(['a,"b ""c"""\r\n'])) rec // [{text:'a',quoted:false},{text:'b "c"',quoted:true}]
 */
export async function* parseCsv(chunks: AsyncIterable<string> | Iterable<string>): AsyncGenerator<CsvField[]> {
  let record: CsvField[] = [];
  let text = '';
  let quoted = false;
  let inQuotes = false;
  let quotePending = false; // saw `"` inside quotes at the end of a chunk: escape or closing?
  let fieldStarted = false; // any character of the current field seen (so "" at EOF counts)
  let skipLF = false; // saw CR at the end of a chunk; a leading LF in the next one belongs to it
  let first = true;
  let line = 1;
  let quoteLine = 1;

  const endField = () => {
    record.push({ text, quoted });
    text = '';
    quoted = false;
    fieldStarted = false;
  };

  for await (let s of chunks) {
    if (first) {
      if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
      if (s.length > 0) first = false;
    }
    let i = 0;
    const n = s.length;
    if (skipLF && n > 0) {
      skipLF = false;
      if (s.charCodeAt(0) === LF) i = 1;
    }
    if (quotePending && n > 0) {
      quotePending = false;
      if (s.charCodeAt(0) === QUOTE) {
        text += '"';
        i = 1;
      } else {
        inQuotes = false;
      }
    }
    while (i < n) {
      if (inQuotes) {
        const j = s.indexOf('"', i);
        if (j === -1) {
          const part = s.slice(i);
          text += part;
          line += countLines(part);
          i = n;
          break;
        }
        const part = s.slice(i, j);
        text += part;
        line += countLines(part);
        if (j + 1 === n) {
          quotePending = true;
          i = n;
          break;
        }
        if (s.charCodeAt(j + 1) === QUOTE) {
          text += '"';
          i = j + 2;
        } else {
          inQuotes = false;
          i = j + 1;
        }
        continue;
      }
      const c = s.charCodeAt(i);
      if (c === QUOTE && !fieldStarted) {
        inQuotes = true;
        quoted = true;
        fieldStarted = true;
        quoteLine = line;
        i++;
        continue;
      }
      if (c === COMMA) {
        endField();
        i++;
        continue;
      }
      if (c === CR || c === LF) {
        endField();
        yield record;
        record = [];
        line++;
        i++;
        if (c === CR) {
          if (i < n) {
            if (s.charCodeAt(i) === LF) i++;
          } else {
            skipLF = true;
          }
        }
        continue;
      }
      // Plain text (or a stray quote, kept as text) up to the next delimiter.
      UNQUOTED_STOP.lastIndex = c === QUOTE ? i + 1 : i;
      const m = UNQUOTED_STOP.exec(s);
      let j = m ? m.index : n;
      while (j < n && s.charCodeAt(j) === QUOTE) {
        UNQUOTED_STOP.lastIndex = j + 1;
        const m2 = UNQUOTED_STOP.exec(s);
        j = m2 ? m2.index : n;
      }
      text += s.slice(i, j);
      fieldStarted = true;
      i = j;
    }
  }
  if (quotePending) inQuotes = false; // the last character closed the field
  if (inQuotes) throw new ExportError('corrupt_file', `csv: quoted field opened on line ${quoteLine} never closes`);
  if (fieldStarted || record.length > 0) {
    endField();
    yield record;
  }
}

function countLines(s: string): number {
  let k = 0;
  for (let p = s.indexOf('\n'); p !== -1; p = s.indexOf('\n', p + 1)) k++;
  return k;
}
