import type { MailFolder } from '@asistente/contracts';
import type { Sql, TransactionSql } from '@asistente/kit';
import type { ParsedMessage } from './parse-message.js';
import type { MessageSummary, PartialBody } from './mailbox.js';

export interface FolderState {
  role: MailFolder;
  path: string;
  uidValidity: bigint;
  lastUid: number;
  /** HIGHESTMODSEQ when the flags were last read (CONDSTORE servers only). */
  highestModseq?: bigint | null;
}

export interface MessageSummaryRow {
  id: string;
  fromAddr: string;
  toAddrs: string;
  subject: string;
  preview: string;
  isRead: boolean;
  sentAt: Date;
  hasAttachments: boolean;
}

export interface MessageRow extends MessageSummaryRow {
  userId: string;
  accountId: string;
  folder: MailFolder;
  uid: number;
  messageId: string | null;
  inReplyTo: string | null;
  refs: string | null;
  ccAddrs: string;
  replyTo: string | null;
  textBody: string;
  htmlBody: string | null;
  bodyFetched: boolean;
  /** Too large to fetch whole: the text is its start, the attachments are on the server. */
  partial: boolean;
}

export interface AttachmentInfoRow {
  id: string;
  name: string;
  contentType: string;
  size: number;
}

export interface AttachmentRow extends AttachmentInfoRow {
  /** Null for a big mail's attachment: its bytes stay on the server, in body part `part`. */
  content: Buffer | null;
  part: string | null;
}

export interface NewMessage extends MessageSummary {
  /** False when only the summary was fetched: the body and attachments come on first open. */
  bodyFetched: boolean;
}

export interface ListFilter {
  folder: MailFolder;
  search?: string | undefined;
  /** Only messages from or to exactly this address. */
  address?: string | undefined;
  limit: number;
  offset: number;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, (c) => `\\${c}`);

/**
 * The address whole, as a header lists it (`a@x.es`, `Ana <a@x.es>`, `a@x.es, b@y.es`): `na@x.es` inside
 * `ana@x.es` is another person, so a substring is not enough.
 */
const wholeAddress = (address: string) => `(^|[\\s<,;:"'(])${escapeRegex(address)}($|[\\s>,;:"')])`;

/** The `email.attachments` rows of one message, in the order the mail lists them. */
function attachmentRows(messageId: string, attachments: ParsedMessage['attachments']) {
  return attachments.map((a, position) => ({ messageId, position, name: a.name, contentType: a.contentType, size: a.size, content: a.content }));
}

/** `email.folders`, `email.messages` and `email.attachments`: the local copy of each mailbox. */
export class MessagesRepository {
  constructor(private readonly sql: Sql) {}

  async folders(accountId: string): Promise<Map<MailFolder, FolderState>> {
    const rows = await this.sql<{ role: MailFolder; path: string; uidValidity: string; lastUid: string; highestModseq: string | null }[]>`
      select role, path, uid_validity, last_uid, highest_modseq from email.folders where account_id = ${accountId}`;
    return new Map(
      rows.map((r) => [
        r.role,
        {
          role: r.role,
          path: r.path,
          uidValidity: BigInt(r.uidValidity),
          lastUid: Number(r.lastUid),
          highestModseq: r.highestModseq === null ? null : BigInt(r.highestModseq),
        },
      ]),
    );
  }

  /** Saved once the flags up to it are applied, so a sync cut short reads them again. */
  async saveModseq(accountId: string, folder: MailFolder, modseq: bigint | null): Promise<void> {
    await this.sql`update email.folders set highest_modseq = ${modseq === null ? null : modseq.toString()}
      where account_id = ${accountId} and role = ${folder}`;
  }

  async saveFolder(tx: TransactionSql | Sql, accountId: string, state: FolderState): Promise<void> {
    await tx`
      insert into email.folders (account_id, role, path, uid_validity, last_uid)
      values (${accountId}, ${state.role}, ${state.path}, ${state.uidValidity.toString()}, ${state.lastUid})
      on conflict (account_id, role) do update
        set path = excluded.path, uid_validity = excluded.uid_validity,
            -- Two syncs of one folder may overlap while a lease changes hands: the mark never goes back.
            last_uid = case when email.folders.uid_validity = excluded.uid_validity
                            then greatest(email.folders.last_uid, excluded.last_uid) else excluded.last_uid end`;
  }

  /** A UIDVALIDITY change: every UID known for the folder means nothing any more. */
  async forgetFolder(tx: TransactionSql | Sql, accountId: string, folder: MailFolder): Promise<void> {
    await tx`delete from email.messages where account_id = ${accountId} and folder = ${folder}`;
  }

  /** Inserts what is not there yet; answers the ids of the rows actually inserted. */
  /** Stores what is not here yet; answers the rows inserted (a UID already stored is skipped). */
  async insertMany(tx: TransactionSql, userId: string, accountId: string, folder: MailFolder, messages: NewMessage[]): Promise<{ id: string; uid: number }[]> {
    if (messages.length === 0) return [];
    const rows = messages.map(({ uid, isRead, parsed, hasAttachments, bodyFetched }) => ({
      userId,
      accountId,
      folder,
      uid,
      messageId: parsed.messageId,
      inReplyTo: parsed.inReplyTo,
      refs: parsed.refs,
      fromAddr: parsed.from,
      toAddrs: parsed.to,
      ccAddrs: parsed.cc,
      replyTo: parsed.replyTo,
      subject: parsed.subject,
      textBody: parsed.text,
      htmlBody: parsed.html,
      preview: parsed.preview,
      isRead,
      hasAttachments,
      parseError: parsed.parseError,
      sentAt: parsed.sentAt,
      bodyFetched,
    }));
    const inserted = await tx<{ id: string; uid: string }[]>`
      insert into email.messages ${tx(rows)}
      on conflict (account_id, folder, uid) do nothing
      returning id, uid`;
    const byUid = new Map(messages.map((m) => [m.uid, m]));
    const attachments = inserted.flatMap(({ id, uid }) => attachmentRows(id, byUid.get(Number(uid))?.parsed.attachments ?? []));
    if (attachments.length > 0) await tx`insert into email.attachments ${tx(attachments)}`;
    return inserted.map((r) => ({ id: r.id, uid: Number(r.uid) }));
  }

  /**
   * Read flags as the server has them now (all of them, or only those changed since the last modseq);
   * messages up to `upToUid` not `present` on the server (expunged) are removed.
   */
  async applyServerState(
    accountId: string,
    folder: MailFolder,
    upToUid: number,
    flags: Map<number, boolean>,
    present: number[] = [...flags.keys()],
  ): Promise<void> {
    const uids = [...flags.keys()];
    const seen = uids.filter((uid) => flags.get(uid));
    const unseen = uids.filter((uid) => !flags.get(uid));
    await this.sql.begin(async (tx) => {
      if (seen.length > 0) {
        await tx`update email.messages set is_read = true
          where account_id = ${accountId} and folder = ${folder} and not is_read and uid = any(${seen}::bigint[])`;
      }
      if (unseen.length > 0) {
        await tx`update email.messages set is_read = false
          where account_id = ${accountId} and folder = ${folder} and is_read and uid = any(${unseen}::bigint[])`;
      }
      await tx`delete from email.messages
        where account_id = ${accountId} and folder = ${folder} and uid <= ${upToUid} and not (uid = any(${present}::bigint[]))`;
    });
  }

  async setReadByUid(accountId: string, folder: MailFolder, uid: number, isRead: boolean): Promise<void> {
    await this.sql`update email.messages set is_read = ${isRead}
      where account_id = ${accountId} and folder = ${folder} and uid = ${uid} and is_read <> ${isRead}`;
  }

  async page(userId: string, filter: ListFilter): Promise<{ rows: MessageSummaryRow[]; total: number; unread: number }> {
    const search = filter.search?.trim().toLowerCase().replaceAll('\u0000', '');
    const address = filter.address?.trim().toLowerCase();
    const where = this.sql`user_id = ${userId} and folder = ${filter.folder}
      ${search ? this.sql`and search like ${`%${escapeLike(search)}%`}` : this.sql``}
      ${address ? this.sql`and search like ${`%${escapeLike(address)}%`} and lower(from_addr || ',' || to_addrs) ~ ${wholeAddress(address)}` : this.sql``}`;
    // One round trip: the counts row, joined to the page (no page rows: one row with null id).
    // Totals come from the trigger-kept counters; only a filter counts its matches.
    const total = search || address
      ? this.sql`(select count(*) from email.messages where ${where})`
      : this.sql`coalesce((select total from email.folder_counts where user_id = ${userId} and folder = ${filter.folder}), 0)`;
    const result = await this.sql<(Omit<MessageSummaryRow, 'id'> & { id: string | null; total: string; unread: string })[]>`
      with counts as (
        select ${total} as total,
               coalesce((select unread from email.folder_counts where user_id = ${userId} and folder = 'inbox'), 0) as unread
      )
      select p.id, p.from_addr, p.to_addrs, p.subject, p.preview, p.is_read, p.sent_at, p.has_attachments, c.total, c.unread
      from counts c left join lateral (
        select id, from_addr, to_addrs, subject, preview, is_read, sent_at, has_attachments
        from email.messages where ${where}
        order by sent_at desc, id desc limit ${filter.limit} offset ${filter.offset}
      ) p on true
      order by p.sent_at desc, p.id desc`;
    const first = result[0];
    const rows = result.filter((r): r is typeof r & { id: string } => r.id !== null);
    return { rows, total: Number(first?.total ?? 0), unread: Number(first?.unread ?? 0) };
  }

  async find(userId: string, id: string): Promise<MessageRow | undefined> {
    const [row] = await this.sql<MessageRow[]>`
      select id, user_id, account_id, folder, uid, message_id, in_reply_to, refs, from_addr, to_addrs, cc_addrs,
             reply_to, subject, preview, text_body, html_body, is_read, sent_at, has_attachments, body_fetched, partial
      from email.messages where user_id = ${userId} and id = ${id}`;
    // bigint arrives as a string; UIDs fit a double exactly (they are 32-bit).
    return row && { ...row, uid: Number(row.uid) };
  }

  /**
   * The body and attachments fetched on first open. Only the first caller stores them (a concurrent open
   * finds `body_fetched` already set and stores nothing).
   */
  async storeBody(id: string, parsed: ParsedMessage): Promise<void> {
    await this.sql.begin(async (tx) => {
      const [row] = await tx<{ id: string }[]>`
        update email.messages
        set text_body = ${parsed.text}, html_body = ${parsed.html}, cc_addrs = ${parsed.cc}, refs = coalesce(refs, ${parsed.refs}),
            parse_error = ${parsed.parseError}, has_attachments = ${parsed.attachments.length > 0}, body_fetched = true
        where id = ${id} and not body_fetched
        returning id`;
      if (!row || parsed.attachments.length === 0) return;
      await tx`insert into email.attachments ${tx(attachmentRows(id, parsed.attachments))}`;
    });
  }

  /** A big mail's first open: the start of its text and its attachments' names and parts, no bytes. */
  async storePartialBody(id: string, body: PartialBody): Promise<void> {
    await this.sql.begin(async (tx) => {
      const [row] = await tx<{ id: string }[]>`
        update email.messages
        set text_body = ${body.text}, html_body = ${body.html}, has_attachments = ${body.attachments.length > 0},
            body_fetched = true, partial = true
        where id = ${id} and not body_fetched
        returning id`;
      if (!row || body.attachments.length === 0) return;
      const rows = body.attachments.map((a, position) => ({ messageId: id, position, name: a.name, contentType: a.contentType, size: a.size, part: a.part }));
      await tx`insert into email.attachments ${tx(rows)}`;
    });
  }

  async idByMessageId(accountId: string, folder: MailFolder, messageId: string): Promise<string | undefined> {
    const [row] = await this.sql<{ id: string }[]>`
      select id from email.messages where account_id = ${accountId} and folder = ${folder} and message_id = ${messageId} limit 1`;
    return row?.id;
  }

  attachmentsOf(messageId: string): Promise<AttachmentInfoRow[]> {
    return this.sql<AttachmentInfoRow[]>`
      select id, name, content_type, size from email.attachments where message_id = ${messageId} order by position`;
  }

  attachmentContents(messageId: string): Promise<AttachmentRow[]> {
    return this.sql<AttachmentRow[]>`
      select id, name, content_type, size, content, part from email.attachments where message_id = ${messageId} order by position`;
  }

  async attachment(userId: string, messageId: string, attachmentId: string): Promise<AttachmentRow | undefined> {
    const [row] = await this.sql<AttachmentRow[]>`
      select a.id, a.name, a.content_type, a.size, a.content, a.part
      from email.attachments a join email.messages m on m.id = a.message_id
      where m.user_id = ${userId} and m.id = ${messageId} and a.id = ${attachmentId}`;
    return row;
  }

  async setRead(id: string, isRead: boolean): Promise<void> {
    await this.sql`update email.messages set is_read = ${isRead} where id = ${id}`;
  }

  /** After a move on the server: the row follows the message to its new folder and UID. */
  async moved(id: string, folder: MailFolder, uid: number | undefined): Promise<void> {
    if (uid === undefined) {
      await this.sql`delete from email.messages where id = ${id}`;
      return;
    }
    await this.sql.begin(async (tx) => {
      // A sync may have fetched the moved copy already: that row gives way to this one.
      await tx`delete from email.messages d using email.messages m
        where m.id = ${id} and d.account_id = m.account_id and d.folder = ${folder} and d.uid = ${uid} and d.id <> m.id`;
      await tx`update email.messages set folder = ${folder}, uid = ${uid} where id = ${id}`;
    });
  }

  async delete(id: string): Promise<void> {
    await this.sql`delete from email.messages where id = ${id}`;
  }
}
