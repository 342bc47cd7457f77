import type { DatedContact } from '@asistente/contacts';
import type { Random } from './random.js';
import { COMPANIES, FIRST_NAMES, LAST_NAMES, MAIL_DOMAINS, slug, TAGS } from './spanish-business.js';
import { businessMoment, DEMO_DAYS } from './demo-calendar.js';

/** Contacts created over the last 90 days, more of them lately, as a growing business would. */
export function demoContacts(random: Random, count: number, now: Date): DatedContact[] {
  const contacts: DatedContact[] = [];
  const emails = new Set<string>();
  for (let i = 0; i < count; i++) {
    const firstName = random.pick(FIRST_NAMES);
    const lastName = `${random.pick(LAST_NAMES)} ${random.pick(LAST_NAMES)}`;
    const company = random.chance(0.7) ? random.pick(COMPANIES) : null;
    const domain = company && random.chance(0.6) ? `${slug(company).replace(/\./g, '')}.es` : random.pick(MAIL_DOMAINS);
    let email: string | null = random.chance(0.9) ? `${slug(firstName)}.${slug(lastName).split('.')[0]}@${domain}` : null;
    if (email && emails.has(email)) email = email.replace('@', `${i}@`);
    if (email) emails.add(email);
    const tags = TAGS.filter(() => random.chance(0.18)).slice(0, 3);
    // Square root skews creation towards recent days.
    const daysAgo = Math.floor(DEMO_DAYS * (1 - Math.sqrt(random.next())));
    contacts.push({
      firstName,
      lastName,
      email,
      phone: random.chance(0.85) ? `+34 6${random.int(10, 99)} ${random.int(100, 999)} ${random.int(100, 999)}` : null,
      company,
      tags,
      createdAt: businessMoment(random, now, daysAgo),
    });
  }
  return contacts.filter((c) => c.createdAt <= now);
}
