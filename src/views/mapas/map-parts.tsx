import { useMemo, type ReactNode } from 'react';
import { Button, Card, Checkbox, FormGroup, InputGroup, MenuItem, Spinner } from '@blueprintjs/core';
import { MultiSelect } from '@blueprintjs/select';
import { useActorRef, useSelector } from '@xstate/react';
import { inspectOption } from '../../machines/inspect';
import type { LotMapActorRef, LotMapInput, LotMapMachine } from '../../machines/mapas/lot-map.machine';
import { blocksOf, type MapLotView } from '../../machines/mapas/map-geometry';
import { LOT_STATUSES, type Currency, type LotStatus } from '../../schemas/proyectos/projects';
import { formatArea, formatMoney } from '../../lib/money';
import { LOT_STATUS_COLOR, LOT_STATUS_LABEL } from '../proyectos/lot-status';

/**
 * Pieces shared by the map screens (src/views/mapas/*Page.tsx and the public /mapa): the map actor
 * hook, the filters column and the simple lot card of the sales / public maps.
 */

/** Starts a lot map actor for one subdivision (a new key → remount the screen with `key`). */
export function useLotMapActor(machine: LotMapMachine, input: LotMapInput): LotMapActorRef {
  return useActorRef(machine, { input, ...inspectOption() });
}

/** The selected lot of the map (from the map's data), or null. */
export function useSelectedLot(actor: LotMapActorRef): MapLotView | null {
  const key = useSelector(actor, (s) => s.context.selectedKey);
  const lots = useSelector(actor, (s) => s.context.lots);
  return useMemo(() => (key ? (lots.find((l) => l.key === key) ?? null) : null), [key, lots]);
}

/** Map filters: blocks (multi-select), statuses (checkboxes), list price range in the subdivision's currency. */
export function MapFilters({ actor }: { actor: LotMapActorRef }) {
  const lots = useSelector(actor, (s) => s.context.lots);
  const filters = useSelector(actor, (s) => s.context.filters);
  const priceText = useSelector(actor, (s) => s.context.priceText);
  const currency = useSelector(actor, (s) => s.context.subdivision?.currency ?? 'PEN');
  const ready = useSelector(actor, (s) => s.matches('ready'));
  const blocks = useMemo(() => blocksOf(lots), [lots]);
  if (!ready) return null;
  const toggleStatus = (status: LotStatus, on: boolean) =>
    actor.send({ type: 'map.filterStatuses', statuses: on ? [...filters.statuses, status] : filters.statuses.filter((s) => s !== status) });
  const symbol = currency === 'USD' ? 'US$' : 'S/';
  return (
    <aside className="map-page__filters" aria-label="Filtros del mapa">
      <FormGroup label="Manzana" labelFor="map-filter-blocks">
        <MultiSelect<string>
          items={blocks}
          selectedItems={[...filters.blocks]}
          placeholder="Todas"
          itemPredicate={(q, b) => b.toLowerCase().includes(q.trim().toLowerCase())}
          itemRenderer={(b, { handleClick, handleFocus, modifiers }) =>
            modifiers.matchesPredicate ? (
              <MenuItem
                key={b}
                text={`MZ ${b}`}
                roleStructure="listoption"
                selected={filters.blocks.includes(b)}
                active={modifiers.active}
                onClick={handleClick}
                onFocus={handleFocus}
              />
            ) : null
          }
          tagRenderer={(b) => `MZ ${b}`}
          onItemSelect={(b) =>
            actor.send({
              type: 'map.filterBlocks',
              blocks: filters.blocks.includes(b) ? filters.blocks.filter((x) => x !== b) : [...filters.blocks, b],
            })
          }
          onRemove={(b) => actor.send({ type: 'map.filterBlocks', blocks: filters.blocks.filter((x) => x !== b) })}
          tagInputProps={{ inputProps: { id: 'map-filter-blocks', 'aria-label': 'Manzana' } }}
          popoverProps={{ minimal: true }}
          // Blueprint names the list "selectable options".
          menuProps={{ 'aria-label': 'Manzanas' }}
          resetOnSelect
        />
      </FormGroup>
      <FormGroup label="Estado">
        {LOT_STATUSES.map((s) => (
          <Checkbox
            key={s}
            checked={filters.statuses.includes(s)}
            onChange={(e) => toggleStatus(s, e.currentTarget.checked)}
            labelElement={
              <span className="lot-map__tooltip-status">
                <i
                  style={{ background: LOT_STATUS_COLOR[s], width: 10, height: 10, display: 'inline-block', borderRadius: 2 }}
                  aria-hidden="true"
                />
                {LOT_STATUS_LABEL[s]}
              </span>
            }
          />
        ))}
      </FormGroup>
      <FormGroup label={`Precio de lista (${symbol})`}>
        <div className="map-page__price">
          <InputGroup
            aria-label="Precio mínimo"
            placeholder="Mínimo"
            inputMode="decimal"
            value={priceText.min}
            onValueChange={(v) => actor.send({ type: 'map.priceTyped', which: 'min', text: v })}
          />
          <InputGroup
            aria-label="Precio máximo"
            placeholder="Máximo"
            inputMode="decimal"
            value={priceText.max}
            onValueChange={(v) => actor.send({ type: 'map.priceTyped', which: 'max', text: v })}
          />
        </div>
      </FormGroup>
      <Button text="Limpiar filtros" icon="filter" variant="minimal" onClick={() => actor.send({ type: 'map.clearFilters' })} />
    </aside>
  );
}

/** A card over the map for the selected lot, with a close button. */
export function LotPanelCard({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  return (
    <Card className="lot-panel" elevation={2} role="region" aria-label={`Lote ${title}`}>
      <div className="lot-panel__header">
        <h2>{title}</h2>
        <Button icon="cross" variant="minimal" aria-label="Cerrar" onClick={onClose} />
      </div>
      {children}
    </Card>
  );
}

/** Details every map knows of a lot: block, number, area, list price (when known), price per m², status. */
export function MapLotFacts({ lot, currency }: { lot: MapLotView; currency: Currency }) {
  return (
    <dl>
      <dt>Manzana</dt>
      <dd>{lot.block}</dd>
      <dt>Lote</dt>
      <dd>{lot.number}</dd>
      <dt>Área</dt>
      <dd>{formatArea(lot.area_m2)}</dd>
      {lot.list_price !== null ? (
        <>
          <dt>Precio</dt>
          <dd>{formatMoney(lot.list_price, currency)}</dd>
        </>
      ) : null}
      {lot.price_per_m2 !== null ? (
        <>
          <dt>Precio por m²</dt>
          <dd>{formatMoney(lot.price_per_m2, currency)}</dd>
        </>
      ) : null}
      <dt>Estado</dt>
      <dd>{LOT_STATUS_LABEL[lot.status]}</dd>
    </dl>
  );
}

/** The selected lot's simple panel (sales, heat, customer and public maps). */
export function SimpleLotPanel({ actor, children }: { actor: LotMapActorRef; children?: ReactNode }) {
  const lot = useSelectedLot(actor);
  const currency = useSelector(actor, (s) => s.context.subdivision?.currency ?? 'PEN');
  if (!lot) return null;
  return (
    <LotPanelCard title={lot.code} onClose={() => actor.send({ type: 'map.select', key: null })}>
      <MapLotFacts lot={lot} currency={currency} />
      {children}
    </LotPanelCard>
  );
}

/** A small spinner for panel sections. */
export const PanelSpinner = () => <Spinner size={20} aria-label="Cargando" />;
