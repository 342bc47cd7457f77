/**
 * swagger-ui has no translations: its labels are literals in its React components. What the library
 * does allow is a page title and extra scripts (`theme`), so a small script served beside it puts the
 * labels a reader acts on into Spanish as they render. Only whole labels are replaced, never text
 * inside the API's own descriptions, which are Spanish already.
 */
export const SWAGGER_UI_LABELS: Readonly<Record<string, string>> = {
  'Authorize': 'Autorizar',
  'Authorized': 'Autorizado',
  'Available authorizations': 'Autorizaciones disponibles',
  'Logout': 'Cerrar sesión',
  'Close': 'Cerrar',
  'Try it out': 'Probar',
  'Cancel': 'Cancelar',
  'Execute': 'Ejecutar',
  'Clear': 'Limpiar',
  'Parameters': 'Parámetros',
  'No parameters': 'Sin parámetros',
  'Request body': 'Cuerpo de la petición',
  'Responses': 'Respuestas',
  'Description': 'Descripción',
  'Example Value': 'Ejemplo',
  'Schema': 'Esquema',
  'Schemas': 'Esquemas',
  'Code': 'Código',
  'Links': 'Enlaces',
  'No links': 'Sin enlaces',
  'Name': 'Nombre',
  'Value': 'Valor',
  'Media type': 'Tipo de contenido',
  'Servers': 'Servidores',
  'Server response': 'Respuesta del servidor',
  'Response body': 'Cuerpo de la respuesta',
  'Response headers': 'Cabeceras de la respuesta',
  'Request URL': 'URL de la petición',
  'Request duration': 'Duración de la petición',
  'Download': 'Descargar',
};

export const SPANISH_PAGE_TITLE = 'Referencia de la API · Mi Asistente.IA';

/** What the script below uses of the page, typed here: the gateway is compiled without the browser's library. */
interface PageText {
  nodeType: number;
  nodeValue: string | null;
}
interface Page {
  document: {
    documentElement: { lang: string };
    body: PageText;
    createTreeWalker(root: PageText, show: number): { nextNode(): PageText | null };
  };
  MutationObserver: new (callback: (mutations: { type: string; target: PageText; addedNodes: { forEach(fn: (node: PageText) => void): void } }[]) => void) => {
    observe(target: PageText, options: { childList: boolean; subtree: boolean; characterData: boolean }): void;
  };
}

/** Runs in the page: one pass over what is there, then every node swagger-ui renders later. */
function translateLabels(labels: Readonly<Record<string, string>>): void {
  const { document, MutationObserver } = globalThis as unknown as Page;
  const TEXT_NODE = 3;
  const SHOW_TEXT = 4;
  document.documentElement.lang = 'es';
  const translateText = (node: PageText): void => {
    const label = labels[(node.nodeValue ?? '').trim()];
    if (label !== undefined) node.nodeValue = label;
  };
  const translateTree = (root: PageText): void => {
    if (root.nodeType === TEXT_NODE) return translateText(root);
    const walker = document.createTreeWalker(root, SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) translateText(node);
  };
  translateTree(document.body);
  new MutationObserver((mutations) => {
    for (const mutation of mutations) {
      if (mutation.type === 'characterData') translateText(mutation.target);
      mutation.addedNodes.forEach(translateTree);
    }
  }).observe(document.body, { childList: true, subtree: true, characterData: true });
}

/** The script file swagger-ui's page loads after its own. */
export function spanishLabelsScript(): string {
  return `(${translateLabels.toString()})(${JSON.stringify(SWAGGER_UI_LABELS)});\n`;
}
