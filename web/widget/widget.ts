import type { WidgetMessage, WidgetPublicConfig } from '@asistente/contracts';
import { WidgetError, type ProfileFields, type WidgetApi } from './api';
import { chatView, line } from './chat-view';
import { applyStyles, widgetCss } from './styles';
import type { visitorTokenStore } from './visitor-token';

type TokenStore = ReturnType<typeof visitorTokenStore>;

/** The server no longer knows the token (signed for another widget, or the visitor was erased): a new visitor starts over. */
const isStaleToken = (err: unknown) => err instanceof WidgetError && (err.status === 401 || err.status === 404);

const messageOf = (err: unknown) => (err instanceof WidgetError ? err.message : 'Algo salió mal. Inténtalo de nuevo.');

/**
 * The chat in `host`'s shadow root: the bubble opens the panel, the visitor writes (their first message
 * makes them a visitor), and the business's answers arrive live by the stream, each message drawn once by id.
 */
export function mountWidget(host: HTMLElement, api: WidgetApi, tokens: TokenStore, config: WidgetPublicConfig): void {
  // Open: the page's styles stop at the border either way, and a closed root hides nothing from the page's own
  // scripts while hiding the chat from assistive tools and tests.
  const root = host.attachShadow({ mode: 'open' });
  applyStyles(root, widgetCss(config.color));
  const view = chatView(config);
  root.append(view.bubble, view.panel);

  const drawn = new Set<string>();
  let stream: EventSource | null = null;

  const isOpen = () => !view.panel.hidden;

  function showError(message: string | null): void {
    view.alert.textContent = message ?? '';
    view.alert.hidden = message === null;
  }

  function draw(message: WidgetMessage): void {
    if (drawn.has(message.id)) return;
    drawn.add(message.id);
    // In the order they were written: a reply on the stream may overtake the answer to the visitor's own POST.
    const node = line(message);
    node.dataset.at = message.at;
    const later = [...view.log.querySelectorAll<HTMLElement>('[data-at]')].find((other) => (other.dataset.at ?? '') > message.at);
    view.log.insertBefore(node, later ?? null);
    view.log.scrollTop = view.log.scrollHeight;
    if (message.from === 'business' && !isOpen()) view.dot.hidden = false;
  }

  function forget(): void {
    tokens.write(null);
    stream?.close();
    stream = null;
  }

  /** The thread so far, then every new message live; the stream's `ready` (again after a reconnect) fills any gap. */
  async function follow(token: string): Promise<void> {
    if (stream) return;
    try {
      const thread = await api.thread(token);
      thread.messages.forEach(draw);
    } catch (err) {
      if (isStaleToken(err)) forget();
      else showError(messageOf(err));
      return;
    }
    const source = new EventSource(api.streamUrl(token));
    stream = source;
    source.addEventListener('ready', () => {
      api.thread(token).then((thread) => thread.messages.forEach(draw), () => undefined);
    });
    source.addEventListener('message', (event) => draw(JSON.parse((event as MessageEvent<string>).data) as WidgetMessage));
    source.addEventListener('error', () => {
      // The browser reconnects by itself unless the server refused the stream outright; then the next message retries.
      if (source.readyState === EventSource.CLOSED && stream === source) stream = null;
    });
  }

  async function visitorToken(): Promise<string> {
    const kept = tokens.read();
    if (kept) return kept;
    const visitor = await api.newVisitor();
    tokens.write(visitor.token);
    return visitor.token;
  }

  /** `act` with the visitor's token; a token the server no longer knows is replaced by a new visitor's, once. */
  async function asVisitor<T>(act: (token: string) => Promise<T>): Promise<T> {
    try {
      return await act(await visitorToken());
    } catch (err) {
      if (!isStaleToken(err) || !tokens.read()) throw err;
      forget();
      return act(await visitorToken());
    }
  }

  function open(): void {
    view.panel.hidden = false;
    view.bubble.setAttribute('aria-expanded', 'true');
    view.dot.hidden = true;
    view.log.scrollTop = view.log.scrollHeight;
    view.text.focus();
  }

  function close(): void {
    view.panel.hidden = true;
    view.bubble.setAttribute('aria-expanded', 'false');
    view.bubble.focus();
  }

  view.bubble.addEventListener('click', () => (isOpen() ? close() : open()));
  view.close.addEventListener('click', close);
  view.panel.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      close();
    }
  });
  // Enter sends, Shift+Enter starts a new line.
  view.text.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      view.compose.requestSubmit();
    }
  });

  view.compose.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = view.text.value.trim();
    if (!text) {
      showError('Escribe un mensaje');
      return;
    }
    view.send.disabled = true;
    asVisitor(async (token) => {
      const message = await api.send(token, text);
      draw(message);
      view.text.value = '';
      showError(null);
      void follow(token);
    })
      .catch((err: unknown) => showError(messageOf(err)))
      .finally(() => {
        view.send.disabled = false;
        view.text.focus();
      });
  });

  view.profile.addEventListener('submit', (event) => {
    event.preventDefault();
    const fields: ProfileFields = {};
    for (const name of ['name', 'email', 'phone'] as const) {
      const value = view.fields[name].value.trim();
      if (value) fields[name] = value;
    }
    if (Object.keys(fields).length === 0) {
      showError('Escribe al menos un dato');
      return;
    }
    view.save.disabled = true;
    asVisitor((token) => api.profile(token, fields))
      .then(() => {
        showError(null);
        view.saved.textContent = 'Gracias, ya tenemos tus datos.';
        view.saved.hidden = false;
        view.profile.closest('details')?.removeAttribute('open');
        view.text.focus();
      })
      .catch((err: unknown) => showError(messageOf(err)))
      .finally(() => {
        view.save.disabled = false;
      });
  });

  const kept = tokens.read();
  if (kept) void follow(kept);
}
