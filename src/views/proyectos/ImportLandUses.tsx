import { Button, HTMLTable, Tag, type Intent } from '@blueprintjs/core';
import { HTMLSelect } from '../shared/BlueprintEs';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { landUseRows, landUsesPending } from '../../machines/proyectos/land-use-choices';
import type { LotImportMachine } from '../../machines/proyectos/lot-import.machine';
import {
  isSellableLandUse,
  LAND_USE_LABEL,
  LAND_USES,
  type ImportPreview,
  type ImportUseSource,
  type LandUse,
} from '../../schemas/proyectos/projects';

/**
 * The mapping step of "Importar lotes" (docs/import.md "Land use"): the file's land-use values that
 * are not a use's own name ("Zona reservada", "Pozo", "Educación"), each with where its use comes
 * from (synonym, remembered from an earlier import of the subdivision, chosen, or none yet), its
 * lot count and a select of the uses (those not for sale marked). On a phone each value takes two
 * lines (value and lots, then the select: src/styles/lot-import.css). A value without a
 * use keeps "Importar" disabled. Renders the machine's state and sends `uses.choose`; nothing else.
 */

/** The tag of a value's use source: its text, its hover explanation and its intent. */
const SOURCE_TAG: Readonly<Record<ImportUseSource, { text: string; title: string; intent: Intent }>> = {
  UNMAPPED: { text: 'Sin asignar', title: 'Elija a qué uso corresponde', intent: 'danger' },
  SYNONYM: { text: 'Sinónimo', title: 'Reconocido por el importador; puede cambiarlo', intent: 'none' },
  REMEMBERED: { text: 'Recordado', title: 'Elegido en una importación anterior de esta lotización', intent: 'primary' },
  CHOSEN: { text: 'Elegido', title: 'Se recordará para los próximos archivos de esta lotización', intent: 'success' },
};

/** The uses as select options: Spanish labels, those not for sale marked "no vendible". */
const USE_OPTIONS = LAND_USES.map((use) => ({
  value: use,
  label: isSellableLandUse(use) ? LAND_USE_LABEL[use] : `${LAND_USE_LABEL[use]} — no vendible`,
}));

/** "1 valor" / "3 valores". */
const valuesText = (n: number) => (n === 1 ? '1 valor' : `${n} valores`);

/** The preview's land-use values with a use select each; shown when the file has any. */
export function ImportLandUses({ actor, preview }: { actor: ActorRefFrom<LotImportMachine>; preview: ImportPreview }) {
  const choices = useSelector(actor, (s) => s.context.landUseChoices);
  const rows = landUseRows(preview, choices);
  const pending = landUsesPending(preview, choices);
  const more = preview.use_values_more ?? 0;
  return (
    <section className="lot-import-uses" aria-label="Usos del archivo">
      <div className="lot-import-uses__head">
        <h4 className="bp6-heading">Usos del archivo ({valuesText(rows.length + more)})</h4>
        {pending > 0 ? (
          <Tag intent="danger" minimal>
            Faltan {pending}
          </Tag>
        ) : (
          <Tag intent="success" minimal icon="tick">
            Todos con uso
          </Tag>
        )}
      </div>
      <p className="lot-import-uses__help">
        Estos valores de la columna «uso» no son nombres de uso de Parcela. Revise a qué uso corresponde cada uno: lo que elija se recordará
        para los próximos archivos de esta lotización.
      </p>
      {pending > 0 ? (
        <p className="lot-import-uses__pending" role="status">
          Elija el uso de {pending === 1 ? 'un valor' : `${pending} valores`} para poder importar.
        </p>
      ) : null}
      <div className="lot-import-table-wrap">
        <HTMLTable compact className="lot-import-table" aria-label="Valores de uso del archivo">
          <thead>
            <tr>
              <th>Valor en el archivo</th>
              <th className="num">Lotes</th>
              <th>Uso en Parcela</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const tag = SOURCE_TAG[row.source];
              return (
                <tr key={row.label}>
                  <td>
                    <div className="lot-import-uses__value">
                      <span className="lot-import-uses__label">«{row.label}»</span>
                      <Tag minimal intent={tag.intent} title={tag.title}>
                        {tag.text}
                      </Tag>
                    </div>
                  </td>
                  <td className="num lot-import-uses__lots">
                    {row.lots}
                    <span className="lot-import-uses__unit">{row.lots === 1 ? ' lote' : ' lotes'}</span>
                  </td>
                  <td className="lot-import-uses__use">
                    <HTMLSelect
                      fill
                      aria-label={`Uso de «${row.label}»`}
                      aria-invalid={row.use === null}
                      className={row.use === null ? 'lot-import-uses__select--missing' : undefined}
                      value={row.use ?? ''}
                      options={row.use === null ? [{ value: '', label: 'Elija un uso…' }, ...USE_OPTIONS] : USE_OPTIONS}
                      onChange={(e) =>
                        actor.send({ type: 'uses.choose', label: row.label, use: (e.currentTarget.value || null) as LandUse | null })
                      }
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </HTMLTable>
      </div>
      {more > 0 ? (
        <p className="lot-import-uses__more" role="status">
          y {valuesText(more)} más: elija el uso de estos y pulse{' '}
          <Button small variant="minimal" icon="refresh" text="Volver a comprobar" onClick={() => actor.send({ type: 'import.recheck' })} />{' '}
          para ver los siguientes.
        </p>
      ) : null}
    </section>
  );
}
