import { createRequire } from 'node:module';

export interface SafeHtml {
  html: string;
  remoteImagesBlocked: boolean;
}

// sanitize-html (with htmlparser2 and postcss, ~10 MB resident) is required by the first HTML mail shown or
// answered, not when the service loads: an install without a mailbox never needs it. It is CommonJS, as the
// static import loaded it, so it is required synchronously and sanitizeMailHtml stays synchronous.
const requireSanitizer = createRequire(import.meta.url);
let sanitizer: { sanitizeHtml: typeof import('sanitize-html'); tags: string[] } | undefined;
function loadSanitizer() {
  if (!sanitizer) {
    const sanitizeHtml = requireSanitizer('sanitize-html') as typeof import('sanitize-html');
    const tags = [...sanitizeHtml.defaults.allowedTags, 'img', 'span', 'font', 'center', 'h1', 'h2', 'u', 's', 'small', 'big', 'hr'];
    sanitizer = { sanitizeHtml, tags };
  }
  return sanitizer;
}
const LAYOUT = ['align', 'valign', 'width', 'height', 'bgcolor', 'color', 'border', 'cellpadding', 'cellspacing', 'colspan', 'rowspan', 'dir'];

/**
 * An HTML mail made safe for the reading pane: no scripts, styles, forms, frames or event handlers; links
 * open outside the app; remote images dropped (they tell the sender the mail was read) unless the user
 * allowed them. The pane also renders it in a sandboxed frame; this is the first wall, not the only one.
 */
export function sanitizeMailHtml(html: string, allowRemoteImages: boolean): SafeHtml {
  const { sanitizeHtml, tags } = loadSanitizer();
  let remoteImagesBlocked = false;
  const clean = sanitizeHtml(html, {
    allowedTags: tags,
    allowedAttributes: {
      '*': LAYOUT,
      a: ['href', 'name', 'title', 'target', 'rel'],
      img: ['src', 'alt', 'title', 'width', 'height'],
      font: ['face', 'size', 'color'],
    },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: allowRemoteImages ? ['http', 'https', 'data'] : ['data'] },
    allowProtocolRelative: false,
    transformTags: {
      a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer' } }),
      img: (tagName, attribs) => {
        const src = attribs.src ?? '';
        if (!allowRemoteImages && /^(https?:)?\/\//i.test(src)) {
          remoteImagesBlocked = true;
          const { src: _blocked, ...rest } = attribs;
          return { tagName, attribs: rest };
        }
        return { tagName, attribs };
      },
    },
  });
  return { html: clean, remoteImagesBlocked };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Plain text as HTML: escaped, line breaks kept, web addresses made links. */
export function textToHtml(text: string): string {
  const escaped = escapeHtml(text);
  const linked = escaped.replace(/\bhttps?:\/\/[^\s<>"']+/g, (url) => `<a href="${url}">${url}</a>`);
  return linked.replace(/\r?\n/g, '<br>\n');
}

/** Whether a body typed in the compose box is HTML already. */
export function looksLikeHtml(body: string): boolean {
  return /<(p|div|br|a|table|span|b|i|strong|em|ul|ol|li|h[1-6]|img|html|body)\b[^>]*>/i.test(body);
}
