// What a send through the Cloud API carries, as the service stores it beside the message
// (`whatsapp.messages.cloud_content`; null means plain text, the message's body).

export type CloudContent =
  | { type: 'text'; text: string }
  /** An approved template, its body's variables in order. */
  | { type: 'template'; name: string; language: string; variables: string[] }
  /** Media already uploaded to Meta (its id is valid there for 30 days). */
  | { type: 'image' | 'video'; mediaId: string; caption: string | null }
  | { type: 'audio'; mediaId: string }
  | { type: 'document'; mediaId: string; caption: string | null; fileName: string | null };

/** The content a stored message is sent with. */
export function contentOf(row: { body: string; cloudContent: CloudContent | null }): CloudContent {
  return row.cloudContent ?? { type: 'text', text: row.body };
}

/** A template's body with its variables in place (`{{1}}`, `{{2}}`…): what the inbox shows as the message. */
export function renderTemplate(body: string, variables: string[]): string {
  return body.replace(/\{\{\s*(\d+)\s*\}\}/g, (placeholder, index: string) => variables[Number(index) - 1] ?? placeholder);
}

/** How many values a template body's placeholders ask for (the highest `{{n}}`). */
export function variablesOf(body: string): number {
  let highest = 0;
  for (const match of body.matchAll(/\{\{\s*(\d+)\s*\}\}/g)) highest = Math.max(highest, Number(match[1]));
  return highest;
}
