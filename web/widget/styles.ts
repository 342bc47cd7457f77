import { safeColor, textOn } from './colors';

/**
 * The widget's whole look, inside its shadow root: nothing of the owner's page reaches it and nothing of it
 * leaks out. `all: initial` on the host stops the page's inherited fonts and colours at the border.
 */
export function widgetCss(color: string): string {
  const accent = safeColor(color);
  return `
:host { all: initial; position: fixed; right: 16px; bottom: 16px; z-index: 2147483000; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #111827; --accent: ${accent}; --on-accent: ${textOn(accent)}; }
*, *::before, *::after { box-sizing: border-box; }
[hidden] { display: none !important; }
button, textarea, input { font: inherit; color: inherit; }
:focus-visible { outline: 3px solid #111827; outline-offset: 2px; }
.bubble { position: relative; width: 56px; height: 56px; border: 0; border-radius: 50%; background: var(--accent); color: var(--on-accent); cursor: pointer; display: grid; place-items: center; box-shadow: 0 4px 14px rgba(0, 0, 0, .25); }
.bubble svg { width: 28px; height: 28px; fill: currentColor; }
.dot { position: absolute; top: 2px; right: 2px; width: 14px; height: 14px; border-radius: 50%; background: #dc2626; border: 2px solid #fff; }
.panel { position: absolute; right: 0; bottom: 72px; width: 360px; height: min(560px, calc(100vh - 104px)); display: flex; flex-direction: column; background: #fff; border-radius: 12px; box-shadow: 0 8px 30px rgba(0, 0, 0, .25); overflow: hidden; }
.head { display: flex; align-items: center; gap: 8px; padding: 12px 12px 12px 16px; background: var(--accent); color: var(--on-accent); }
.head h2 { flex: 1; margin: 0; font-size: 17px; font-weight: 600; overflow-wrap: anywhere; }
.close { width: 36px; height: 36px; border: 0; border-radius: 8px; background: transparent; color: inherit; font-size: 24px; line-height: 1; cursor: pointer; }
.log { flex: 1; overflow-y: auto; padding: 12px 16px; display: flex; flex-direction: column; gap: 8px; background: #f9fafb; }
.msg { max-width: 85%; padding: 8px 12px; border-radius: 12px; white-space: pre-wrap; overflow-wrap: anywhere; }
.msg.business { align-self: flex-start; background: #fff; border: 1px solid #e5e7eb; }
.msg.visitor { align-self: flex-end; background: var(--accent); color: var(--on-accent); }
.who { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.alert { margin: 0; padding: 8px 16px; background: #fef2f2; color: #991b1b; font-size: 14px; }
.note { margin: 0; padding: 8px 16px; background: #f0fdf4; color: #166534; font-size: 14px; }
form { margin: 0; }
.compose { display: flex; gap: 8px; padding: 12px 16px; border-top: 1px solid #e5e7eb; }
.compose textarea { flex: 1; min-height: 44px; max-height: 120px; resize: vertical; padding: 10px; border: 1px solid #9ca3af; border-radius: 8px; }
.send, .save { min-height: 44px; padding: 0 16px; border: 0; border-radius: 8px; background: var(--accent); color: var(--on-accent); font-weight: 600; cursor: pointer; }
.send:disabled, .save:disabled { opacity: .6; cursor: default; }
details { padding: 0 16px 12px; font-size: 14px; }
summary { cursor: pointer; padding: 4px 0; }
.profile { display: grid; gap: 6px; padding-top: 6px; }
.profile label { display: grid; gap: 2px; }
.profile input { min-height: 40px; padding: 6px 10px; border: 1px solid #9ca3af; border-radius: 8px; }
@media (max-width: 480px) {
  :host { right: 12px; bottom: 12px; }
  .panel { position: fixed; inset: 0; width: 100%; height: 100%; border-radius: 0; }
}
`;
}

/**
 * A constructed stylesheet, which a strict Content-Security-Policy (`style-src 'self'`) does not govern; a
 * `<style>` element only where the browser has none (it needs the page's CSP to allow inline styles).
 */
export function applyStyles(root: ShadowRoot, css: string): void {
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [sheet];
    return;
  }
  const style = document.createElement('style');
  style.textContent = css;
  root.append(style);
}
