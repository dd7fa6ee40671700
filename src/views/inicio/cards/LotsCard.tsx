import { useMemo } from 'react';
import { HTMLTable } from '@blueprintjs/core';
import { LOT_STATUSES, type LotStatus } from '../../../schemas/proyectos/projects';
import type { LotsCard } from '../../../schemas/inicio/dashboard';
import { LOT_STATUS_COLOR, LOT_STATUS_LABEL } from '../../proyectos/lot-status';
import { FigureLink } from '../FigureLink';
import { LazyDashboardChart } from '../LazyDashboardChart';
import { lotsLink } from '../dashboard-links';
import type { CardBodyProps } from './card-props';

/** The statuses that appear in any subdivision, in the order of `LOT_STATUSES` (unknown codes last). */
function statusesOf(data: LotsCard): string[] {
  const present = new Set(data.subdivisions.flatMap((s) => Object.keys(s.counts)));
  const known = LOT_STATUSES.filter((status) => present.has(status));
  return [...known, ...[...present].filter((status) => !(LOT_STATUSES as readonly string[]).includes(status)).sort()];
}

const label = (status: string) => LOT_STATUS_LABEL[status as LotStatus] ?? status;

/**
 * "Lotes por estado": per active subdivision, its lots by status as stacked bars (the status colours
 * of the maps) and as a table whose every count links to that subdivision's Lotes filtered by the
 * status.
 */
export function LotsCardBody({ data, dark }: CardBodyProps<LotsCard>) {
  const statuses = useMemo(() => statusesOf(data), [data]);
  const spec = useMemo(
    () => ({
      label: 'Gráfico de barras apiladas: lotes por estado en cada lotización',
      stacked: true,
      categories: data.subdivisions.map((s) => s.name),
      series: statuses.map((status) => ({
        name: label(status),
        values: data.subdivisions.map((s) => s.counts[status] ?? 0),
        ...(status in LOT_STATUS_COLOR ? { color: LOT_STATUS_COLOR[status as LotStatus] } : {}),
      })),
    }),
    [data, statuses],
  );
  if (data.subdivisions.length === 0) return <p className="dashboard-empty">Sin lotizaciones activas.</p>;
  return (
    <>
      <LazyDashboardChart spec={spec} dark={dark} />
      <div className="dashboard-table-scroll">
        <HTMLTable compact className="dashboard-table">
          <thead>
            <tr>
              <th scope="col">Lotización</th>
              {statuses.map((status) => (
                <th key={status} scope="col">
                  {label(status)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.subdivisions.map((s) => (
              <tr key={s.id}>
                <th scope="row">{s.name}</th>
                {statuses.map((status) => {
                  const count = s.counts[status];
                  return (
                    <td key={status}>
                      {count === undefined ? (
                        '0'
                      ) : (
                        <FigureLink href={lotsLink(s, status)} label={`${s.name}: ${count} ${label(status)}`}>
                          {count}
                        </FigureLink>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </div>
    </>
  );
}
