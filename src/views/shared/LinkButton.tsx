import { Classes, Icon, type IconName, type Intent } from '@blueprintjs/core';
import { Link } from 'wouter';

/**
 * A link drawn as a Blueprint button (the screen changes, so it is a link to assistive technology
 * and opens in a new tab with the usual keys), for actions that lead to another screen: "Pagar",
 * "Ver en el plano". Blueprint's AnchorButton is not used because it gives the `<a>` role="button".
 * @param href the app's path (wouter navigates without a reload).
 */
export function LinkButton({
  href,
  text,
  icon,
  intent,
  small,
  minimal,
  label,
}: {
  href: string;
  text: string;
  icon?: IconName;
  intent?: Intent;
  small?: boolean;
  minimal?: boolean;
  /** Accessible name when the text alone is ambiguous (e.g. one "Ver en el plano" per lot). */
  label?: string;
}) {
  const classes = [
    Classes.BUTTON,
    intent && intent !== 'none' ? Classes.intentClass(intent) : '',
    small ? Classes.SMALL : '',
    minimal ? Classes.MINIMAL : '',
  ].filter(Boolean);
  return (
    <Link href={href} className={classes.join(' ')} aria-label={label}>
      {icon ? <Icon icon={icon} /> : null}
      <span className={Classes.BUTTON_TEXT}>{text}</span>
    </Link>
  );
}
