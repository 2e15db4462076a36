// A QR code drawn with text characters, for a phone to scan off the terminal (the UPI intent of an
// S2S order, spec 2.6). `qrcode` is loaded only when one is drawn.

/**
 * With colour: black on white whatever the terminal's theme (ANSI), the most reliable to scan.
 * Without (--no-color, NO_COLOR): plain block characters, dark modules drawn, no escape codes.
 */
export async function qrTerminal(text: string, color: boolean): Promise<string> {
  const { default: QRCode } = await import('qrcode');
  const drawn = color ? await QRCode.toString(text, { type: 'terminal', small: true }) : await QRCode.toString(text, { type: 'utf8' });
  return drawn.endsWith('\n') ? drawn : `${drawn}\n`;
}
