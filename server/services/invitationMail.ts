import type { Mail } from "./mail.ts";

/** What the mails name: who granted access, to which account, from which record, in which role. */
export interface GrantFacts {
  grantedBy: string;
  accountName: string;
  recordNumber: string;
  roleName: string;
}

const intro = (f: GrantFacts) =>
  `${f.grantedBy} gave you access to the Device Portal account "${f.accountName}" (as ${f.roleName}), from ${f.recordNumber}.`;

/** The invitation of someone without a profile: a single-use registration link into that account. */
export function invitationMail(to: string, f: GrantFacts, link: string, hours: number, now: Date): Mail {
  return {
    to,
    secretUntil: new Date(now.getTime() + hours * 3_600_000),
    subject: `You are invited to the Device Portal account "${f.accountName}"`,
    text: [
      intro(f),
      "",
      `Create your profile and choose a password here (the link works once, for ${hours} hours):`,
      link,
      "",
      "If you did not expect this invitation, ignore this message.",
    ].join("\n"),
  };
}

/** The notice to someone who already had a profile and was added at once. */
export function accessGrantedMail(to: string, f: GrantFacts, signInLink: string): Mail {
  return {
    to,
    subject: `You now have access to the Device Portal account "${f.accountName}"`,
    text: [intro(f), "", "Sign in as usual; the account is in your list of accounts:", signInLink].join("\n"),
  };
}
