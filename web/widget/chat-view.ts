import type { WidgetMessage, WidgetPublicConfig } from '@asistente/contracts';
import { chatIcon, el } from './dom';

/** A visitor's text longer than this the server refuses (contracts' WIDGET_TEXT_MAX, not imported: it would bring TypeBox along). */
const TEXT_MAX = 2000;

/** The widget's elements, drawn once: the bubble, and the panel with the thread, the composer and the details form. */
export function chatView(config: WidgetPublicConfig) {
  const bubble = el('button', { type: 'button', class: 'bubble', 'aria-label': 'Abrir chat', 'aria-expanded': 'false', 'aria-controls': 'panel' }, [chatIcon()]);
  const dot = el('span', { class: 'dot', hidden: true }, [el('span', { class: 'who' }, ['Mensaje nuevo'])]);
  bubble.append(dot);

  const close = el('button', { type: 'button', class: 'close', 'aria-label': 'Cerrar chat' }, ['×']);
  const log = el('div', { class: 'log', role: 'log', 'aria-live': 'polite', 'aria-label': 'Mensajes', tabindex: '0' }, [line({ from: 'business', text: config.greeting })]);
  const alert = el('p', { class: 'alert', role: 'alert', hidden: true });

  const text = el('textarea', { name: 'text', rows: '2', maxlength: String(TEXT_MAX), placeholder: 'Escribe tu mensaje', 'aria-label': 'Escribe tu mensaje', required: true });
  const send = el('button', { type: 'submit', class: 'send' }, ['Enviar']);
  const compose = el('form', { class: 'compose' }, [text, send]);

  const field = (label: string, name: string, type: string, autocomplete: string) => {
    const input = el('input', { name, type, autocomplete, maxlength: name === 'phone' ? '30' : '120' });
    return { input, label: el('label', {}, [label, input]) };
  };
  const name = field('Nombre', 'name', 'text', 'name');
  const email = field('Correo electrónico', 'email', 'email', 'email');
  const phone = field('Teléfono', 'phone', 'tel', 'tel');
  const save = el('button', { type: 'submit', class: 'save' }, ['Guardar mis datos']);
  const profile = el('form', { class: 'profile', novalidate: true }, [name.label, email.label, phone.label, save]);
  const saved = el('p', { class: 'note', role: 'status', hidden: true });
  const details = el('details', {}, [el('summary', {}, ['Déjanos tus datos']), profile]);

  const title = el('h2', { id: 'title' }, [config.name]);
  const panel = el('div', { id: 'panel', class: 'panel', role: 'dialog', 'aria-labelledby': 'title', hidden: true }, [
    el('div', { class: 'head' }, [title, close]),
    log,
    alert,
    saved,
    compose,
    details,
  ]);

  return { bubble, dot, panel, close, log, alert, text, send, compose, profile, save, saved, fields: { name: name.input, email: email.input, phone: phone.input } };
}

export type ChatView = ReturnType<typeof chatView>;

/** One line of the thread; the visitor's own are told apart for a screen reader too. */
export function line(message: Pick<WidgetMessage, 'from' | 'text'>): HTMLDivElement {
  const who = message.from === 'visitor' ? 'Tú: ' : 'Respuesta: ';
  return el('div', { class: `msg ${message.from}` }, [el('span', { class: 'who' }, [who]), message.text]);
}
