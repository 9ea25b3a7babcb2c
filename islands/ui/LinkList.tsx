/** The signed-in area's places, in the order the home page and the app's menu show them. */
export const ACCOUNT_LINKS: readonly (readonly [href: string, label: string])[] = [
  ["/s/devices", "Devices"],
  ["/s/orders/quotes/list", "Quotes"],
  ["/s/orders/list", "Orders"],
  ["/s/settings", "Settings"],
  ["/s/security", "Security"],
];

/** A list of links for a <nav>. */
export function LinkList({
  links,
  className,
}: {
  links: readonly (readonly [string, string])[];
  className?: string;
}) {
  return (
    <ul className={className}>
      {links.map(([href, label]) => (
        <li key={href}>
          <a href={href}>{label}</a>
        </li>
      ))}
    </ul>
  );
}
