import { useMemo } from 'react';
import { HTMLTable } from '@blueprintjs/core';
import { DAYS_LATE_BUCKET_LABELS } from '../../../schemas/finanzas/instalments';
import type { OverdueCard } from '../../../schemas/inicio/dashboard';
import { FigureLink } from '../FigureLink';
import { MoneyLines } from '../MoneyLines';
import { LazyDashboardChart } from '../LazyDashboardChart';
import { overdueBucketLink } from '../dashboard-links';
import type { CardBodyProps } from './card-props';

/**
 * "Cartera por días de atraso": the overdue instalments per days-late bucket as bars (their
 * number; "Al día" only in the table, its bar would dwarf the others) and every bucket as a table — bucket, instalments, outstanding per currency — each row a link to Registro de Cuotas
 * filtered by that bucket (labels of `DAYS_LATE_BUCKET_LABELS`).
 */
export function OverdueCardBody({ data, dark }: CardBodyProps<OverdueCard>) {
  // The bars are the late buckets only: "Al día" holds most instalments and would flatten them.
  const late = useMemo(() => data.buckets.filter((b) => b.bucket !== 'AL_DIA'), [data]);
  const spec = useMemo(
    () => ({
      label: 'Gráfico de barras: cuotas vencidas por días de atraso',
      categories: late.map((b) => DAYS_LATE_BUCKET_LABELS[b.bucket]),
      series: [{ name: 'Cuotas', values: late.map((b) => b.count) }],
    }),
    [late],
  );
  return (
    <>
      {late.length > 0 ? <LazyDashboardChart spec={spec} dark={dark} /> : null}
      <HTMLTable compact className="dashboard-table">
        <thead>
          <tr>
            <th scope="col">Atraso</th>
            <th scope="col">Cuotas</th>
            <th scope="col">Saldo</th>
          </tr>
        </thead>
        <tbody>
          {data.buckets.map((b) => {
            const href = overdueBucketLink(b.bucket);
            return (
              <tr key={b.bucket}>
                <th scope="row">
                  <FigureLink href={href}>{DAYS_LATE_BUCKET_LABELS[b.bucket]}</FigureLink>
                </th>
                <td>
                  <FigureLink href={href}>{b.count}</FigureLink>
                </td>
                <td>
                  <FigureLink href={href}>
                    <MoneyLines rows={b.by_currency} />
                  </FigureLink>
                </td>
              </tr>
            );
          })}
        </tbody>
      </HTMLTable>
    </>
  );
}
