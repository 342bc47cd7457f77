import { widgetApi } from './api';
import { el } from './dom';
import { serverBase } from './script-source';
import { visitorTokenStore } from './visitor-token';
import { mountWidget } from './widget';

/**
 * widget.js: the owner pastes `<script src="PUBLIC_URL/widget.js" data-key="wk_…" async></script>` in their
 * website. It leaks no global: everything lives in this file's scope and in a shadow root.
 */

/** Read now: `document.currentScript` is only set while this file first runs. */
function ownScript(): HTMLScriptElement | null {
  const current = document.currentScript;
  if (current instanceof HTMLScriptElement && current.dataset.key) return current;
  return document.querySelector<HTMLScriptElement>('script[data-key][src$="/widget.js"]');
}

const warn = (why: string) => console.warn(`Mi Asistente.IA (chat web): ${why}`);

function bodyReady(): Promise<HTMLElement> {
  if (document.body) return Promise.resolve(document.body);
  return new Promise((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(document.body), { once: true }));
}

async function start(script: HTMLScriptElement): Promise<void> {
  const key = script.dataset.key ?? '';
  const base = serverBase(script.src);
  if (!key || !base) {
    warn('el código del chat web está incompleto; vuelve a copiarlo desde Configuración');
    return;
  }
  const api = widgetApi(base, key);
  let config;
  try {
    config = await api.config();
  } catch (err) {
    // A website not among the widget's allowed origins, or a widget since removed: the visitor sees nothing.
    warn(err instanceof Error ? err.message : String(err));
    return;
  }
  const body = await bodyReady();
  // The snippet pasted twice draws one chat.
  if ([...body.querySelectorAll('[data-asistente-widget]')].some((node) => node.getAttribute('data-asistente-widget') === key)) return;
  const host = el('div', { 'data-asistente-widget': key });
  body.append(host);
  mountWidget(host, api, visitorTokenStore(key), config);
}

const script = ownScript();
if (script) void start(script);
