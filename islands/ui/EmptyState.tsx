import { Inbox, type LucideIcon } from "./Icon.tsx";

interface Props {
  title: string;
  /** One sentence: why it is empty or what to do. */
  text: string;
  icon?: LucideIcon;
  action?: { href: string; label: string } | undefined;
  /** The title's heading level where the empty state sits. */
  level?: 2 | 3 | 4;
}

/** What a list or page shows when it has nothing yet. */
export function EmptyState({ title, text, icon: Shape = Inbox, action, level = 2 }: Props) {
  const Heading = `h${level}` as const;
  return (
    <section className="empty-state">
      <Shape size={40} strokeWidth={1.5} />
      <Heading>{title}</Heading>
      <p>{text}</p>
      {action && (
        <a href={action.href} role="button" className="outline">
          {action.label}
        </a>
      )}
    </section>
  );
}
