import { formatMoney, type CurrencyCode } from '../../lib/money';

/**
 * Money of a dashboard figure, one line per currency (docs/dashboard.md "Rules": amounts of PEN and
 * USD are never added), formatted by src/lib/money.ts; "—" when no currency has anything.
 */
export function MoneyLines({ rows, className }: { rows: readonly { currency: CurrencyCode; amount: number }[]; className?: string }) {
  if (rows.length === 0) return <span className={className ?? 'dashboard-money'}>—</span>;
  return (
    <span className={className ?? 'dashboard-money'}>
      {rows.map((row) => (
        <span key={row.currency} className="dashboard-money-line" data-currency={row.currency}>
          {formatMoney(row.amount, row.currency)}
        </span>
      ))}
    </span>
  );
}
