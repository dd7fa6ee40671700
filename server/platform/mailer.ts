import nodemailer from 'nodemailer';

/** One e-mail as the outbox hands it to a {@link Mailer} (plain text, Spanish). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends e-mail. Resolves once the mail server accepted the message; rejects otherwise — with
 * `responseCode` (the SMTP reply code, e.g. 550) when the server answered, so a permanent refusal
 * (5xx) can be told from a temporary one (4xx, network).
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Closes pooled connections. */
  close(): void;
}

/** Time limits of one SMTP exchange, in ms (nodemailer's defaults wait up to 2 and 10 minutes). */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;

/**
 * A {@link Mailer} over SMTP with nodemailer (issue 11 item 10; https://nodemailer.com/smtp/).
 * @param smtpUrl `smtp://user:password@host:587` (STARTTLS when the server offers it) or
 *   `smtps://…:465` (TLS from the start); it holds a credential, so it is never logged.
 * @param from the sender, e.g. `Parcela <no-reply@example.com>` (MAIL_FROM).
 */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const url = new URL(smtpUrl);
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
    secure: url.protocol === 'smtps:',
    ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
    ...SMTP_TIMEOUTS,
  });
  return {
    async send(message) {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    },
    close: () => transport.close(),
  };
}
