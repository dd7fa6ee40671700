import { inflateSync } from 'node:zlib';

/**
 * The text a pdfmake/pdfkit PDF shows, for assertions: every Flate stream inflated, the strings of
 * its text operators (hex `<…>` or literal `(…)`, WinAnsi) decoded as Latin-1 and joined per
 * `TJ`/`Tj`, all joined (pdfmake writes a line word by word, each with its trailing space). Enough for the standard fonts the server uses, not a parser.
 */
export function pdfText(bytes: Buffer): string {
  const raw = bytes.toString('latin1');
  const lines: string[] = [];
  const streams = /stream\r?\n([\s\S]*?)\r?\nendstream/g;
  for (let m = streams.exec(raw); m; m = streams.exec(raw)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(m[1]!, 'latin1')).toString('latin1');
    } catch {
      continue;
    }
    const ops = /\[((?:[^\]\\]|\\.)*)\]\s*TJ|(<[0-9a-fA-F]*>|\((?:[^)\\]|\\.)*\))\s*Tj/g;
    for (let op = ops.exec(content); op; op = ops.exec(content)) {
      const body = op[1] ?? op[2]!;
      const parts = body.match(/<[0-9a-fA-F]*>|\((?:[^)\\]|\\.)*\)/g) ?? [];
      lines.push(
        parts
          .map((p) => (p.startsWith('<') ? Buffer.from(p.slice(1, -1), 'hex').toString('latin1') : p.slice(1, -1).replace(/\\(.)/g, '$1')))
          .join(''),
      );
    }
  }
  return lines.join('');
}
