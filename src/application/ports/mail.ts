export const MailNotices = Symbol('MailNotices');

/** A share's or request's mail notices: `share:{id}` or `request:{id}`. */
export type NoticeKey = `share:${string}` | `request:${string}`;

export interface MailNotice {
  key: NoticeKey;
  ownerId: string;
  /** Something happened since the last mail (or since notices were turned on). */
  pending: boolean;
  /** When notices were turned on: the first mail sums up from here. */
  from: Date;
  lastSentAt: Date | null;
  /**
   * The newest events the last mail told of: their time, and the ids of those at exactly that time (others of that
   * millisecond, recorded after the mail, are still to tell). Null before the first mail.
   */
  covered: { at: Date; ids: string[] } | null;
}

/**
 * Who wants mail, at which address, and what is waiting to be told: one record per share or request with notices
 * on, taken under a lease by one instance when a mail is due (at most one per 10 minutes each).
 */
export interface MailNotices {
  setAddress(userId: string, email: string | null): Promise<void>;
  address(userId: string): Promise<string | null>;
  /** Turns notices on (from `now`) or off for a share or request. */
  setWanted(key: NoticeKey, ownerId: string, on: boolean, now: Date): Promise<void>;
  /** Those of `keys` with notices on. */
  wanted(keys: readonly NoticeKey[]): Promise<Set<NoticeKey>>;
  /** Something happened: marks the record pending, if notices are on for it. */
  mark(key: NoticeKey): Promise<void>;
  /**
   * One pending record whose last mail is at least `gapMs` old (or none was sent) and whose lease is free, taken for
   * `holder` until `until` in one conditional update.
   */
  takeDue(holder: string, now: Date, until: Date, gapMs: number): Promise<MailNotice | null>;
  /** The mail went at `at`: pending clears (unless marked again meanwhile), only for the lease holder. */
  sent(key: NoticeKey, holder: string, at: Date, covered: MailNotice['covered']): Promise<boolean>;
  forget(keys: readonly NoticeKey[]): Promise<void>;
}

export const Mailer = Symbol('Mailer');
/** Sends one plain-text mail; `available` is false when SMTP_URL and MAIL_FROM are not set (nothing is sent). */
export interface Mailer {
  readonly available: boolean;
  send(mail: { to: string; subject: string; text: string }): Promise<void>;
}
