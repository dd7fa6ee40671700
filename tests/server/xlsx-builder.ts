import { crc32, deflateRawSync } from 'node:zlib';

/**
 * Test helper (issue 11 item 8): a lot workbook of `rows` data rows built without exceljs, so a
 * test can make a million-row XLSX in a fraction of a second. A minimal SpreadsheetML package
 * zipped here (deflate, no data descriptors), in Excel's entry order: the worksheet before
 * `sharedStrings.xml`. Columns manzana, lote, area, precio_m2; row i is lot A-i, 120 m², S/ 250.
 */
export function lotWorkbook(rows: number): Buffer {
  const strings = ['manzana', 'lote', 'area', 'precio_m2', 'A'];
  const cell = (ref: string, value: string | number, shared: boolean) => `<c r="${ref}"${shared ? ' t="s"' : ''}><v>${value}</v></c>`;
  const parts: string[] = [
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>',
  ];
  parts.push(`<row r="1">${cell('A1', 0, true)}${cell('B1', 1, true)}${cell('C1', 2, true)}${cell('D1', 3, true)}</row>`);
  for (let i = 1; i <= rows; i++) {
    const r = i + 1;
    parts.push(
      `<row r="${r}">${cell(`A${r}`, 4, true)}${cell(`B${r}`, i, false)}${cell(`C${r}`, 120, false)}${cell(`D${r}`, 250, false)}</row>`,
    );
  }
  parts.push('</sheetData></worksheet>');
  const ns = 'http://schemas.openxmlformats.org';
  const entries: Array<[string, Buffer]> = [
    [
      '[Content_Types].xml',
      Buffer.from(
        `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="${ns}/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
          `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>` +
          `<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`,
      ),
    ],
    [
      '_rels/.rels',
      Buffer.from(
        `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${ns}/package/2006/relationships"><Relationship Id="rId1" Type="${ns}/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ),
    ],
    [
      'xl/workbook.xml',
      Buffer.from(
        `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${ns}/spreadsheetml/2006/main" xmlns:r="${ns}/officeDocument/2006/relationships"><sheets><sheet name="Lotes" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
    ],
    [
      'xl/_rels/workbook.xml.rels',
      Buffer.from(
        `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${ns}/package/2006/relationships"><Relationship Id="rId1" Type="${ns}/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>` +
          `<Relationship Id="rId2" Type="${ns}/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
      ),
    ],
    ['xl/worksheets/sheet1.xml', Buffer.from(parts.join(''))],
    [
      'xl/sharedStrings.xml',
      Buffer.from(
        `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${ns}/spreadsheetml/2006/main" count="${strings.length}" uniqueCount="${strings.length}">${strings.map((t) => `<si><t>${t}</t></si>`).join('')}</sst>`,
      ),
    ],
  ];
  return zip(entries);
}

/** A zip archive (deflated entries, central directory, no zip64) of `entries`. */
function zip(entries: Array<[string, Buffer]>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of entries) {
    const nameBytes = Buffer.from(name);
    const data = deflateRawSync(content);
    const crc = crc32(content);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(content.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(content.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
