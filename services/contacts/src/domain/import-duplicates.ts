import type { ImportSkip } from '@asistente/contracts';

/** Why a valid line changed nothing, as the owner reads it under "Omitidos". */
export const SKIP_REASONS = {
  sameEmail: 'ya existe (mismo correo)',
  repeatedEmail: 'repetida en el archivo (mismo correo)',
  samePhone: 'ya existe (mismo teléfono)',
  repeatedPhone: 'repetida en el archivo (mismo teléfono)',
} as const;

/** One batch's lines as the importer holds them: a line's email (as written) and phone in E.164, by index. */
export interface BatchKeys {
  line: number[];
  email: (string | null)[];
  phoneE164: (string | null)[];
}

/**
 * Which valid lines of an import change nothing, and why, across the whole file. A line with an email is
 * matched by its lowercased address (the upsert's key); one without, by its phone in E.164 (the key one
 * person is matched by everywhere), against the stored contacts and the lines read before it. The first
 * `max` reasons are kept, like the errors; the importer counts them all.
 */
export class ImportDuplicates {
  readonly skips: ImportSkip[] = [];
  /** Addresses of earlier batches. */
  private readonly emails = new Set<string>();
  /** Phones of every line read so far, with an email or not. */
  private readonly phones = new Set<string>();

  constructor(private readonly max: number) {}

  /** The phones of the batch's lines without an email that no earlier line had: the ones to look for among the stored contacts. */
  phonesToLookUp(batch: BatchKeys): string[] {
    const unmet = new Set<string>();
    batch.email.forEach((email, i) => {
      const phone = batch.phoneE164[i];
      if (email === null && phone != null && !this.phones.has(phone)) unmet.add(phone);
    });
    return [...unmet];
  }

  /**
   * The indexes of the lines without an email to add: the others repeat a phone already read in the file
   * (this batch's lines with an email included) or one a stored contact has (`stored`).
   */
  linesWithoutEmailToAdd(batch: BatchKeys, stored: ReadonlySet<string>): number[] {
    batch.email.forEach((email, i) => {
      const phone = batch.phoneE164[i];
      if (email !== null && phone != null) this.phones.add(phone);
    });
    const add: number[] = [];
    batch.email.forEach((email, i) => {
      if (email !== null) return;
      const phone = batch.phoneE164[i];
      if (phone == null) add.push(i);
      else if (this.phones.has(phone)) this.skip(batch.line[i]!, SKIP_REASONS.repeatedPhone);
      else if (stored.has(phone)) this.skip(batch.line[i]!, SKIP_REASONS.samePhone);
      else add.push(i);
      if (phone != null) this.phones.add(phone);
    });
    return add;
  }

  /**
   * The reasons of the batch's lines with an email, once written (or compared): `written` holds the addresses
   * the upsert inserted or changed; `countedBefore`, whether an earlier batch already counted
   * the address as created or updated. Of the lines of one address in a batch the last one is written.
   */
  linesWithEmail(batch: BatchKeys, written: ReadonlySet<string>, countedBefore: (key: string) => boolean): void {
    const last = new Map<string, number>();
    batch.email.forEach((email, i) => {
      if (email !== null) last.set(email.toLowerCase(), i);
    });
    batch.email.forEach((email, i) => {
      if (email === null) return;
      const key = email.toLowerCase();
      const line = batch.line[i]!;
      if (last.get(key) !== i) this.skip(line, SKIP_REASONS.repeatedEmail);
      else if (written.has(key)) {
        // A dry run writes nothing, so an address of an earlier batch reads as new again: counted once all the same.
        if (countedBefore(key)) this.skip(line, SKIP_REASONS.repeatedEmail);
      } else this.skip(line, this.emails.has(key) ? SKIP_REASONS.repeatedEmail : SKIP_REASONS.sameEmail);
    });
    for (const key of last.keys()) this.emails.add(key);
  }

  private skip(line: number, reason: string): void {
    if (this.skips.length < this.max) this.skips.push({ line, reason });
  }
}
