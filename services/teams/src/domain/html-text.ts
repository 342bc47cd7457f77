/** Postgres refuses NUL in text, and a chat line has no use for it. */
const stripNul = (text: string) => text.split(String.fromCharCode(0)).join('');

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      // Control characters (NUL included: Postgres refuses it) and invalid code points are dropped.
      return Number.isFinite(code) && code >= 32 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}

/**
 * Graph channel messages come as HTML (or text). The screen shows text only: blocks and <br> become line
 * breaks, scripts, styles and attachment placeholders disappear, every other tag is dropped and entities are
 * decoded last, so nothing in the result is markup.
 */
export function htmlToText(html: string, contentType: string | null | undefined): string {
  if (contentType !== 'html') return stripNul(html).trim();
  const withoutCode = html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<attachment\b[^>]*>\s*<\/attachment>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6]|tr|blockquote)\s*>/gi, '\n')
    .replace(/<[^>]*>/g, '');
  return stripNul(decodeEntities(withoutCode))
    .replace(/[ \t\f\v]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
