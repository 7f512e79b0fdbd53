/** Escapes a PDF literal string: backslash and both parentheses. */
const literal = (text: string) => `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;

export interface PdfOptions {
  /** JavaScript for the catalog's open action (`/OpenAction << /S /JavaScript /JS (…) >>`), as an attacker writes it. */
  openScript?: string;
  /**
   * An `/Encrypt` dictionary in the trailer whose password checks fail for the empty password: readers must ask for
   * one (nothing is actually encrypted; no reader gets that far).
   */
  passwordProtected?: boolean;
  /**
   * Bytes of an unused stream before the xref table: a PDF this large (over pdf.js's 128 KiB) is read by ranges, the
   * table at its end first.
   */
  padding?: number;
  /** A JPEG 2000 image on the first page (bytes no decoder could read), drawn above the text. */
  jpxImage?: boolean;
}

/**
 * A valid PDF with one page per text, each in large Helvetica, built here: catalog, page tree, font, then a page and
 * its content stream per text, an xref table whose offsets are counted from the bytes written, and a trailer, so any
 * viewer opens it without repairing it.
 */
export function pdfWithPages(texts: string[], options: PdfOptions = {}): Buffer {
  const firstPage = 4;
  const kids = texts.map((_, i) => `${firstPage + 2 * i} 0 R`).join(' ');
  const action = options.openScript === undefined ? '' : ` /OpenAction << /S /JavaScript /JS ${literal(options.openScript)} >>`;
  const objects = [
    `<< /Type /Catalog /Pages 2 0 R${action} >>`,
    `<< /Type /Pages /Kids [${kids}] /Count ${texts.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const imageRef = firstPage + 2 * texts.length;
  texts.forEach((text, i) => {
    const image = options.jpxImage && i === 0;
    const stream = `${image ? 'q 200 0 0 100 40 500 cm /Im1 Do Q ' : ''}BT /F1 36 Tf 40 700 Td ${literal(text)} Tj ET`;
    const xobjects = image ? ` /XObject << /Im1 ${imageRef} 0 R >>` : '';
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >>${xobjects} >> /Contents ${firstPage + 2 * i + 1} 0 R >>`,
      `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
    );
  });
  if (options.jpxImage) {
    // The JP2 signature box, then nothing a decoder could use.
    const jpx = `\x00\x00\x00\x0CjP  \r\n\x87\n${'\x00'.repeat(64)}`;
    objects.push(
      `<< /Type /XObject /Subtype /Image /Width 20 /Height 10 /Filter /JPXDecode /Length ${jpx.length} >>\nstream\n${jpx}\nendstream`,
    );
  }
  if (options.padding) objects.push(`<< /Length ${options.padding} >>\nstream\n${'%'.repeat(options.padding)}\nendstream`);
  if (options.passwordProtected) {
    const garbage = `<${'ab'.repeat(32)}>`;
    objects.push(`<< /Filter /Standard /V 1 /R 2 /Length 40 /O ${garbage} /U ${garbage} /P -4 >>`);
  }
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefAt = Buffer.byteLength(body, 'latin1');
  // Each xref entry is exactly 20 bytes: 10-digit offset, space, 5-digit generation, space, flag, CR LF.
  const entries = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n\r\n`).join('');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f\r\n${entries}`;
  const encrypt = options.passwordProtected ? ` /Encrypt ${objects.length} 0 R /ID [<${'01'.repeat(16)}> <${'01'.repeat(16)}>]` : '';
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${encrypt} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A one-page PDF showing `text`. */
export const onePagePdf = (text: string, options: PdfOptions = {}): Buffer => pdfWithPages([text], options);
