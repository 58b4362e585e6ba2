import { describe, expect, it } from 'vitest';
import { csvChunks, csvField, csvRecord, utf8ByteOrderMark } from './csv-writer.ts';
import { parseCsv } from './testing/parse-csv.ts';

describe('csv writer', () => {
  it('quotes only the fields that need it, doubling quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
    expect(csvField(' padded ')).toBe('" padded "');
    expect(csvField('中文')).toBe('中文');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(true)).toBe('true');
    expect(csvField(Number.NaN)).toBe('');
  });

  it('defuses text a spreadsheet would run as a formula, but leaves numbers numbers', () => {
    expect(csvField('=HYPERLINK("http://evil","x")')).toBe('"\'=HYPERLINK(""http://evil"",""x"")"');
    expect(csvField('+1+1')).toBe("'+1+1");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\t=1')).toBe("'\t=1");
    expect(csvField('a=1')).toBe('a=1');
    expect(csvField(-5)).toBe('-5');
  });

  it('ends records with CRLF and reads back to the same cells', async () => {
    expect(csvRecord(['a', 1, 'b,c'])).toBe('a,1,"b,c"\r\n');
    const columns = [
      { header: 'Name', cell: (row: { name: string }) => row.name },
      { header: 'Length', cell: (row: { name: string }) => row.name.length },
    ];
    async function* batches() {
      yield [{ name: 'one' }, { name: 'two "quoted",\nsplit' }];
      yield [];
      yield [{ name: '=1+2' }];
    }
    let text = '';
    for await (const chunk of csvChunks(columns, batches())) text += chunk;
    expect(text.startsWith(utf8ByteOrderMark)).toBe(true);
    expect(parseCsv(text.slice(1))).toEqual([
      ['Name', 'Length'],
      ['one', '3'],
      ['two "quoted",\nsplit', '19'],
      ["'=1+2", '4'],
    ]);
  });
});
