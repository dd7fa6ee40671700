/**
 * Links for a contact's phone number (docs/domain.md "Leads: contact links"): a `tel:` link and,
 * for a Peruvian mobile, a WhatsApp chat (https://wa.me/51XXXXXXXXX) with a greeting typed in.
 * Peru's country code is 51; mobiles have 9 digits starting with 9 (MTC numbering plan).
 */

const PERU = '51';

/** A phone's digits, Peruvian national part and whether it is a mobile; null when it has no digits. */
function parse(phone: string): { national: string; international: boolean } | null {
  const trimmed = phone.trim();
  let digits = trimmed.replace(/\D/g, '');
  if (digits === '') return null;
  if (trimmed.startsWith('+') || trimmed.startsWith('00')) {
    if (trimmed.startsWith('00')) digits = digits.slice(2);
    if (!digits.startsWith(PERU)) return { national: digits, international: true };
    digits = digits.slice(PERU.length);
  } else if (digits.length === 11 && digits.startsWith(PERU + '9')) digits = digits.slice(PERU.length);
  return { national: digits, international: false };
}

/** Whether `phone` is a Peruvian mobile (9 digits from 9, with or without +51). */
export function isPeruvianMobile(phone: string): boolean {
  const parsed = parse(phone);
  return parsed !== null && !parsed.international && /^9\d{8}$/.test(parsed.national);
}

/**
 * The `tel:` address of a phone: +51 and the national number for a Peruvian one ("987 111 222" →
 * "tel:+51987111222"; a landline keeps its area code: "01 421 1234" → "tel:+5114211234"), + and the
 * digits for another country's; null when it has no digits.
 */
export function telHref(phone: string): string | null {
  const parsed = parse(phone);
  if (!parsed) return null;
  if (parsed.international) return `tel:+${parsed.national}`;
  const national = parsed.national.replace(/^0/, '');
  return `tel:+${PERU}${national}`;
}

/**
 * The WhatsApp chat of a Peruvian mobile with `text` typed in (https://wa.me/51XXXXXXXXX?text=…,
 * the text URL-encoded); null for any other number (WhatsApp needs a mobile).
 */
export function whatsAppHref(phone: string, text: string): string | null {
  if (!isPeruvianMobile(phone)) return null;
  const parsed = parse(phone)!;
  return `https://wa.me/${PERU}${parsed.national}?text=${encodeURIComponent(text)}`;
}

/**
 * The greeting a staff member sends a lead on WhatsApp: "Hola {first name}, le saluda {staff} de
 * {company}. …". The company part is left out when it is not known; `project` (a subdivision the
 * lead asked about) is named when given.
 */
export function leadGreeting({
  leadName,
  staffName,
  company,
  project,
}: {
  leadName: string;
  staffName: string;
  company?: string | null;
  project?: string | null;
}): string {
  const first = leadName.trim().split(/\s+/)[0] ?? '';
  const who = [staffName.trim(), company?.trim() ? `de ${company.trim()}` : ''].filter(Boolean).join(' ');
  const about = project?.trim() ? ` Le escribo por su interés en ${project.trim()}.` : ' Le escribo por su interés en nuestros lotes.';
  return `Hola ${first}${who ? `, le saluda ${who}` : ''}.${about}`;
}
