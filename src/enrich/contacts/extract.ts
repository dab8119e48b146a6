/**
 * Contact facts of one web page, pure (no I/O): e-mails, phones, social profiles, named contacts,
 * and the same-site links worth a visit (contact, about, imprint, team pages). Fetching lives in
 * ./crawl.ts; turning pages into place fields in ./fields.ts.
 *
 * @example extractPage('<a href="mailto:info@x.com">mail</a>', 'https://x.com/', 'US').emails // ['info@x.com']
 */
import { attr, findAll, hasClass, parseHtml, textOf, type Element } from '../../sources/_kit/html.ts';
import { jsonLd, isLdType, ldText, type JsonLd } from '../../sources/_kit/jsonld.ts';
import { parsePhone } from '../../lookups/phones/index.ts';
import { registrableDomain } from '../../sources/places-by-domain/domain.ts';
import { cleanEmail, decodeCfEmail, emailsInText } from './emails.ts';
import { socialNetwork, type SocialNetwork } from './social.ts';

export interface Contact {
  name: string;
  title: string | null;
  email: string | null;
}

export interface PageFacts {
  emails: string[];
  /** E.164. */
  phones: string[];
  socials: Partial<Record<SocialNetwork, string>>;
  contacts: Contact[];
  /** Same-site pages likely to hold contacts, best first. */
  links: string[];
}

/** Path words of the pages visited after the home page, by priority. */
const PAGE_WORDS: [RegExp, number][] = [
  [/kontakt|contact|contacto|contatti|contato|kapcsolat|epikoinonia|yhteystiedot/i, 5],
  [/impressum|imprint|mentions-legales|legal-notice|aviso-legal|colofon/i, 4],
  [/team|staff|people|our-people|mitarbeiter|equipe|equipo|leadership|management/i, 3],
  [/about|ueber-uns|uber-uns|about-us|qui-sommes|chi-siamo|sobre|over-ons|company/i, 2],
];
const PHONE_TEXT = /(?:\+|\b00)?\(?\d[\d\s().\/-]{6,18}\d/g;

const uniq = <T>(xs: T[]) => [...new Set(xs)];

/** E.164 of a phone text when it is a valid number (the place's country reads national numbers). */
export function normalisePhone(text: string, region: string | null): string | null {
  const p = parsePhone(text, region ?? undefined);
  return p.ok && p.phone.isValid() ? p.phone.number : null;
}

function pageScore(u: URL): number {
  const path = decodeURIComponent(u.pathname).toLowerCase();
  for (const [re, score] of PAGE_WORDS) if (re.test(path)) return score;
  return 0;
}

function personsFromLd(ld: JsonLd[]): Contact[] {
  const out: Contact[] = [];
  const visit = (o: unknown) => {
    if (!o || typeof o !== 'object') return;
    if (Array.isArray(o)) { o.forEach(visit); return; }
    const x = o as JsonLd;
    if (isLdType(x, 'Person')) {
      const name = ldText(x.name);
      if (name) out.push({ name, title: ldText(x.jobTitle), email: x.email ? cleanEmail(String(x.email)) : null });
    }
    for (const k of ['employee', 'employees', 'member', 'founder', 'contactPoint', '@graph']) visit(x[k]);
  };
  ld.forEach(visit);
  return out;
}

const CARD = /\b(team|member|staff|person|people|employee|profile|vcard|card)\b/i;
const ROLE = /\b(title|role|position|job|function|designation)\b/i;

// Predicates rather than CSS selectors: a selector string is parsed again on every call, per card.
/** `h2`–`h5`, `[itemprop=name]` or `.name`. */
const isNameElement = (e: Element) => /^h[2-5]$/.test(e.name) || attr(e, 'itemprop') === 'name' || hasClass(e, 'name');
const isMailto = (e: Element) => e.name === 'a' && /^mailto:/i.test(attr(e, 'href') ?? '');

/** Team cards: an element whose class says member/staff/person with a heading (name) and a role element. */
function personsFromCards(root: ReturnType<typeof parseHtml>): Contact[] {
  const out: Contact[] = [];
  for (const card of findAll(root, (e) => CARD.test(attr(e, 'class') ?? ''))) {
    const heads = findAll(card, isNameElement);
    const roles = findAll(card, (e) => ROLE.test(attr(e, 'class') ?? '') || attr(e, 'itemprop') === 'jobTitle');
    if (heads.length !== 1 || roles.length === 0) continue; // a list of cards, or no role: not one person
    const name = textOf(heads[0]);
    const title = textOf(roles[0]);
    if (!name || name.length > 80 || !title || title.length > 120) continue;
    const mail = findAll(card, isMailto).map((a) => cleanEmail(attr(a, 'href') ?? '')).find(Boolean) ?? null;
    out.push({ name, title, email: mail });
  }
  return out;
}

export function extractPage(html: string, pageUrl: string, region: string | null): PageFacts {
  const doc = parseHtml(html);
  const base = new URL(pageUrl);
  const site = registrableDomain(pageUrl) ?? base.hostname;
  const emails: string[] = [];
  const phones: string[] = [];
  const socials: PageFacts['socials'] = {};
  const links: { href: string; score: number }[] = [];
  for (const e of findAll(doc, (x: Element) => x.name === 'a' || x.attribs['data-cfemail'] !== undefined)) {
    const cf = attr(e, 'data-cfemail');
    if (cf) { const d = decodeCfEmail(cf); if (d) emails.push(d); }
    const href = attr(e, 'href');
    if (!href) continue;
    if (/^mailto:/i.test(href)) { const m = cleanEmail(href); if (m) emails.push(m); continue; }
    if (/^tel:/i.test(href)) { const p = normalisePhone(href.slice(4), region); if (p) phones.push(p); continue; }
    const cfHash = /\/cdn-cgi\/l\/email-protection#([0-9a-f]+)/i.exec(href);
    if (cfHash) { const d = decodeCfEmail(cfHash[1]); if (d) emails.push(d); continue; }
    let u: URL;
    try { u = new URL(href, base); } catch { continue; }
    const net = socialNetwork(u.href);
    if (net) { socials[net] ??= u.href; continue; }
    if ((u.protocol === 'http:' || u.protocol === 'https:') && (registrableDomain(u.href) ?? u.hostname) === site) {
      u.hash = '';
      const score = pageScore(u);
      if (score > 0) links.push({ href: u.href, score });
    }
  }
  const text = textOf(doc, true);
  emails.push(...emailsInText(text));
  for (const m of text.matchAll(PHONE_TEXT)) {
    const digits = m[0].replace(/\D/g, '');
    if (digits.length < 7 || digits.length > 15) continue;
    const p = normalisePhone(m[0], region);
    if (p) phones.push(p);
  }
  const ld = jsonLd(html);
  for (const o of ld) {
    // The company's own profile list (JSON-LD sameAs) counts as much as a link.
    for (const s of Array.isArray(o.sameAs) ? o.sameAs : [o.sameAs]) {
      const net = typeof s === 'string' ? socialNetwork(s) : null;
      if (net) socials[net] ??= s;
    }
    for (const k of ['email', 'telephone']) {
      const v = ldText(o[k]);
      if (!v) continue;
      if (k === 'email') { const m = cleanEmail(v); if (m) emails.push(m); } else { const p = normalisePhone(v, region); if (p) phones.push(p); }
    }
  }
  const contacts = [...personsFromLd(ld), ...personsFromCards(doc)];
  const seen = new Set<string>();
  return {
    emails: uniq(emails), phones: uniq(phones), socials,
    contacts: contacts.filter((c) => !seen.has(c.name) && seen.add(c.name)),
    links: uniq(links.sort((a, b) => b.score - a.score).map((l) => l.href)).filter((h) => h.replace(/\/$/, '') !== base.href.replace(/#.*$/, '').replace(/\/$/, '')),
  };
}
