import type { Test } from 'tap';
import { mapFolders } from '../../src/domain/folders.js';
import { MailConnectError } from '../../src/domain/mail-errors.js';
import { withMailbox, type Mailbox, type MailboxLogin, type MailboxProvider } from '../../src/domain/mailbox.js';
import { rawMail } from '../fixtures/imap-peer.js';

/** What the mailbox port's conformance suite needs of one provider: the provider, a login it takes and one it refuses. */
export interface MailboxHarness {
  provider: MailboxProvider;
  login: MailboxLogin;
  refused: MailboxLogin;
}

const ADDRESS = 'buzon@ejemplo.com';

/** A mail with one attachment, as a mail app writes it. */
function withAttachment(subject: string, content: Buffer): Buffer {
  const boundary = 'limite-de-prueba';
  return Buffer.from(
    [
      `From: Ana <ana@cliente.com>`,
      `To: ${ADDRESS}`,
      `Subject: ${subject}`,
      `Date: ${new Date().toUTCString()}`,
      `Message-ID: <${subject.replace(/\W/g, '')}@cliente.com>`,
      'MIME-Version: 1.0',
      `Content-Type: multipart/mixed; boundary="${boundary}"`,
      '',
      `--${boundary}`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Te mando el presupuesto adjunto.',
      `--${boundary}`,
      'Content-Type: application/pdf; name="presupuesto.pdf"',
      'Content-Disposition: attachment; filename="presupuesto.pdf"',
      'Content-Transfer-Encoding: base64',
      '',
      content.toString('base64').replace(/.{76}/g, '$&\r\n'),
      `--${boundary}--`,
      '',
    ].join('\r\n'),
  );
}

/** Resolves once `holds` is true, checked at each report; rejects after `ms` (a state, not a time, is awaited). */
function until(what: string, ms = 20_000): { promise: Promise<void>; check: (holds: boolean) => void } {
  let check: (holds: boolean) => void = () => {};
  const promise = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
    check = (holds) => {
      if (!holds) return;
      clearTimeout(timer);
      resolve();
    };
  });
  return { promise, check };
}

/**
 * The mailbox port's conformance suite: the same checks for every provider, through the port alone. A
 * provider passes when it names the four folders, reads a folder's new mail since a mark with its summary,
 * opens a message whole or in part, flags, moves, deletes, appends, streams an attachment, reports a watched
 * folder's changes, and refuses a bad login with a Spanish MailConnectError.
 */
export async function mailboxConformance(t: Test, name: string, build: (t: Test) => Promise<MailboxHarness>): Promise<void> {
  // The harness is built inside the provider's own test: its servers close when its checks end.
  await t.test(`mailbox port: ${name}`, async (t) => checks(t, await build(t)));
}

async function checks(t: Test, { provider, login, refused }: MailboxHarness): Promise<void> {
  const session = <T>(task: (mailbox: Mailbox) => Promise<T>) => withMailbox(provider, login, undefined, task);
  const roles = await session(async (mailbox) => mapFolders(await mailbox.folders()));
  const inbox = roles.get('inbox')!;
  const trash = roles.get('trash')!;
  const drafts = roles.get('drafts')!;

  await t.test('a refused login is a MailConnectError in Spanish, marked as refused', async (t) => {
    const error: unknown = await provider.open(refused).then((mailbox) => mailbox.close(), (e: unknown) => e);
    t.ok(error instanceof MailConnectError, 'refused');
    t.ok(error instanceof MailConnectError && error.authFailed, 'the credentials, not the network');
    t.match(error instanceof Error ? error.message : '', /^No se pudo conectar al servidor/);
  });

  await t.test('names the inbox, sent, drafts and trash', async (t) => {
    t.same([...roles.keys()].sort(), ['drafts', 'inbox', 'sent', 'trash']);
  });

  await t.test('new mail since a mark, summarised with its preview and read flag, in arrival order', async (t) => {
    const { before, after } = await session(async (mailbox) => {
      const before = await mailbox.inFolder(inbox, async (folder) => ({ status: folder.status, uids: await folder.above(0) }));
      await mailbox.append(inbox, Buffer.from(rawMail({ from: 'Luis <luis@cliente.com>', to: ADDRESS, subject: 'Pedido 1', body: 'Quiero dos cajas' })), {});
      await mailbox.append(inbox, Buffer.from(rawMail({ from: 'eva@cliente.com', to: ADDRESS, subject: 'Pedido 2', body: 'Y yo tres' })), { read: true });
      const after = await mailbox.inFolder(inbox, async (folder) => {
        const mark = before.uids.at(-1) ?? 0;
        const uids = await folder.above(mark);
        return { status: folder.status, uids, recent: await folder.receivedSince(new Date(Date.now() - 86_400_000)), summaries: await folder.summaries(uids) };
      });
      return { before, after };
    });
    t.equal(after.status.validity, before.status.validity, 'the numbers keep their meaning');
    t.ok(after.status.validity > 0n, 'a validity is given');
    t.equal(after.status.count, before.status.count + 2);
    t.equal(after.uids.length, 2, 'the two new ones above the mark');
    t.ok(after.uids[0]! < after.uids[1]!, 'ascending, as they arrived');
    t.same(after.recent.slice(-2), after.uids, 'received today');
    t.match(after.summaries, [
      { uid: after.uids[0], isRead: false, hasAttachments: false, parsed: { subject: 'Pedido 1', from: 'Luis <luis@cliente.com>', preview: 'Quiero dos cajas' } },
      { uid: after.uids[1], isRead: true, parsed: { subject: 'Pedido 2', from: 'eva@cliente.com', preview: 'Y yo tres' } },
    ]);
  });

  await t.test('opens a message whole, or in part over the limit with its attachment left to download', async (t) => {
    const pdf = Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 251));
    await session(async (mailbox) => {
      await mailbox.append(inbox, withAttachment('Presupuesto', pdf), {});
      const { uid, whole, part } = await mailbox.inFolder(inbox, async (folder) => {
        const uid = (await folder.above(0)).at(-1)!;
        return { uid, whole: await folder.body(uid, 10_000_000), part: await folder.body(uid, 100) };
      });
      t.ok(whole && 'source' in whole && whole.source.toString('latin1').includes('Subject: Presupuesto'), 'whole: the source');
      if (!part || !('partial' in part)) throw new Error('over the limit, the message should come in part');
      t.match(part.partial.text, /Te mando el presupuesto adjunto/);
      t.match(part.partial.attachments, [{ name: 'presupuesto.pdf', contentType: 'application/pdf' }]);
      const stream = await session((downloader) => downloader.download(inbox, uid, part.partial.attachments[0]!.part, 1024).then(async (content) => {
        const chunks: Buffer[] = [];
        for await (const chunk of content ?? []) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks);
      }));
      t.same(stream, pdf, 'the attachment streamed, decoded');
    });
  });

  await t.test('marks read, moves to trash, deletes; read flags and presence follow', async (t) => {
    await session(async (mailbox) => {
      await mailbox.append(inbox, Buffer.from(rawMail({ from: 'a@x.com', to: ADDRESS, subject: 'Leer', body: 'a' })), {});
      await mailbox.append(inbox, Buffer.from(rawMail({ from: 'b@x.com', to: ADDRESS, subject: 'Mover', body: 'b' })), {});
      await mailbox.append(inbox, Buffer.from(rawMail({ from: 'c@x.com', to: ADDRESS, subject: 'Borrar', body: 'c' })), {});
      const [read, moved, deleted] = await mailbox.inFolder(inbox, async (folder) => (await folder.above(0)).slice(-3));
      const mark = await mailbox.inFolder(inbox, async (folder) => {
        const mark = folder.status.changeMark;
        await folder.markRead(read!);
        return mark;
      });
      const movedTo = await mailbox.inFolder(inbox, async (folder) => {
        t.equal((await folder.readFlags(deleted!)).get(read!), true, 'read');
        if (mark !== undefined) t.same([...(await folder.readFlags(deleted!, mark)).keys()], [read], 'only what changed since the mark');
        const movedTo = await folder.move(moved!, trash);
        await folder.delete(deleted!);
        const present = await folder.present(deleted!);
        t.ok(present.includes(read!) && !present.includes(moved!) && !present.includes(deleted!), 'moved and deleted are gone');
        return movedTo;
      });
      const inTrash = await mailbox.inFolder(trash, async (folder) => folder.summaries(await folder.above(0)));
      t.match(inTrash.at(-1), { parsed: { subject: 'Mover' } }, 'in the trash');
      if (movedTo !== undefined) t.equal(inTrash.at(-1)!.uid, movedTo, 'under the number answered');
    });
  });

  await t.test('appends a draft', async (t) => {
    const subjects = await session(async (mailbox) => {
      await mailbox.append(drafts, Buffer.from(rawMail({ from: ADDRESS, to: 'x@y.com', subject: 'Borrador', body: 'sin terminar' })), { draft: true, read: true });
      return mailbox.inFolder(drafts, async (folder) => (await folder.summaries(await folder.above(0))).map((s) => [s.parsed.subject, s.isRead]));
    });
    t.same(subjects, [['Borrador', true]]);
  });

  await t.test('a watched folder reports new mail and a read flag changed elsewhere', async (t) => {
    const watched = await provider.open(login, undefined, { watch: true });
    t.teardown(() => watched.close());
    const arrived = until('new mail reported');
    const flagged: [number, boolean][] = [];
    let changes = 0;
    let read = until('the read flag reported');
    await watched.watch(inbox, {
      changed: () => {
        changes += 1;
        arrived.check(true);
        read.check(true);
      },
      readChanged: (uid, isRead) => {
        flagged.push([uid, isRead]);
        read.check(isRead);
      },
      closed: () => undefined,
    });
    await session((other) => other.append(inbox, Buffer.from(rawMail({ from: 'd@x.com', to: ADDRESS, subject: 'Nuevo', body: 'd' })), {}));
    await arrived.promise;
    read = until('the read flag reported');
    const reportedBefore = changes;
    const uid = await session((other) =>
      other.inFolder(inbox, async (folder) => {
        const uid = (await folder.above(0)).at(-1)!;
        await folder.markRead(uid);
        return uid;
      }),
    );
    await read.promise;
    // The message by its number when the mailbox names it, else a change of the folder (read again by a sync).
    if (flagged.length > 0) t.same(flagged.at(-1), [uid, true], 'the message read elsewhere');
    else t.ok(changes > reportedBefore, 'the folder reported changed');
  });
}
